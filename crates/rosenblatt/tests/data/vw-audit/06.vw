1 'tag1 |a :7. |a_feat :7. word:ab12 a.b:-1.25 4294967295 |a1 w14:0.1234567 f1 :0 w15:0.5
-1t2|xns w1:0.1234567 123456:x:y
-1 0.5 'tag1 |c1 
-1 0 |zns w43 x y:0 x |B y:-0 0:3e2 f1 z-9 |cns w0 |yns:-1 y a.b 123456 word:ab12
-1 2 |bns:-1 f1 w35:1E-3 w13 |z1 w36:0.5 4294967295:red :blue |Ans :1
1 0.5 |c 
-1 0t2|x :1 98765432109:x:y y:-0 1:blue |  |c 
-1 |A:2 w8 | z-9:1E-3 42:ab12 w1 :2 |a1 a.b w4 w10:blue
-1 2 | Größe:0.1234567 f1:0
1 0.5t2|B_feat w43:-0 123456 | w11:-0 0 |A 0 123456:red
-1 0.5 |a:-1 :-1.25 a.b:blue w8
-1 |A:2 y:0.5 w16 w29 |B_feat w30 w28:blue 123456 |z 123456 the_man f1 w16
-1 0.5 |A f1:0.1234567 z-9:blue |Bns z-9 f1:blue 42:3e2 :0
1 2t2|b w47:-1.25 w21 |A :1 w27 :0.5 the_man
-1 0 |b Größe:2 w41:0 1 42
1 2 'tag1 |B:0.5 w20 f1 |b w14:0.5 :-1.25
-1 |z1 z-9:x:y a.b w36:-1.25 |c w37 x
1t2|ans w24 98765432109:red Größe:0.5 w12:-0 |b1:-1 w20 w3:x:y a.b:7. | w0:0.1234567
1 |B w16:red :1 |A :0 the_man |xns  |y1 f1:3e2
-1 |z1  | :1 :0 y:2
1 0t2|z1 w10:-0 w1 w43 :x:y |x w43 42:0.5 w42:2 w5:7. |A_feat w38:0 z-9 42:1E-3 :-1.25 |x:0.5 w2 w17:7. a.b:-1.25
-1 'tag1 |A1 4294967295:2 :-0 z-9 |z:0.5 w34:7. Größe:0.1234567 98765432109
1 0.5t2|yns z-9:-0 |x1 w46 |y_feat:2 w44:2 w15:0.1234567
1 0 'tag1 |c1:2 w6
1 0t2|Ans w9 a.b:-0 w33:blue
1t2|z:-1 a.b:0.5 a.b
-1 'tag1 |a:-1 
-1 'tag1 |a y:-0 w28:x:y |  | 98765432109:blue the_man |c a.b:-1.25 42:x:y
-1 0 |x1 w36 f1:x:y |x:-1 w40 w0
-1 0 'tag1 |a 0:red 123456 a.b |x z-9:-1.25 0:-1.25
1 'tag1 |Ans Größe
-1 |A:2 w45:-0 w27:3e2 |a:-1 word z-9:x:y 123456:3e2
1 0 |z1 a.b:7. |bns:2 w27 y 98765432109 w26 |a1 word
-1 'tag1 |x y |A 98765432109:ab12 123456:7.
-1 0.5t2|y_feat w20 the_man:red w10:0 |B f1 word |a_feat:0.5 w30 w17 4294967295:1E-3
1t2|bns x
-1 |b_feat 123456 Größe
1 0.5t2|y1:-1 42:blue 98765432109:1E-3 | the_man :0.1234567 w17:1E-3 Größe |Ans :1E-3 the_man:3e2 x
-1 0.5 'tag1 |x :0.5 f1:0 Größe :-0
1 0 | y:x:y word:2 |a1 w27 a.b:red :3e2 |z1  | 
-1t2|y1 98765432109:red z-9 |a_feat:0.5 w37:x:y w48:blue 7 | 
-1 |bns 
1t2|y1:0.5 x w33:blue :0.1234567 w39
1t2| word:red |z:2 w49:-1.25 w21:2 w35:blue a.b:7. |A w5 :1 4294967295 word:-1.25
-1 |zns  |A_feat:-1 w11 | y:1E-3 w5:x:y 4294967295
1 0t2|z1 123456:0.5 42 :7. |c the_man w11:0.1234567 w46:0.1234567 0
1t2|c_feat w11 |B z-9:red w12 the_man:-0 |B x word:0.5
-1 |x_feat w22:-0 |a:0.5 w25:blue 42 |c:0.5 
1 0.5t2|B_feat 
1 0 |y word:3e2 0:0.5 w19:0 the_man:blue |z1 a.b:2 w48:blue w10:2 |A y w30:3e2 w21:blue word:0.5 |c1 
1t2|ans w2:-0 y Größe:blue
1 0.5 |b1 w21 7 word:red 1
-1 0.5 |c a.b w44:red
1 |z_feat w27:0.1234567 w25:red |B z-9
1 'tag1 |y_feat Größe w25:ab12 |c_feat 1:3e2
1t2| :1 the_man:3e2 w37:x:y w47 | w26 Größe | w17 w37:ab12
-1 0 |c  |x:2 4294967295:3e2 z-9:0 |y w4:-1.25 :1E-3 w14:3e2
1 0 'tag1 |B_feat the_man:1E-3 y 0 |c1  |a1 
-1 |B1 w41:7. |A 
1t2|cns  |A1  |zns y :red 1 the_man |c_feat Größe w37:0
-1 0.5 'tag1 |B:-1 42:0.1234567 Größe :1 |B  |y_feat Größe:red f1 w0
1 0.5 |y:-1 :x:y Größe:x:y |A a.b:0 Größe |b1 :0 |xns:0.5 word 0:0.5 :1
1t2|z x:x:y w1:blue :1 0 | the_man:3e2 w24:2 Größe:ab12 |B 98765432109:0.5 w21 f1:2 :0.5
1 'tag1 |B 4294967295:blue 42:1E-3 |A 
-1 |z:-1  |z:2 
1t2|y_feat 0 w23 y:1E-3
-1 0.5 | word:7. w20:3e2 w12:3e2 w49:3e2 | 1:x:y 0:red f1:0.1234567
1t2|Ans w38:0.5 w22:ab12 1:0 :red |x1:-1 Größe w41 |xns:2 z-9 w38:0.5 the_man:red |y_feat w26
1 'tag1 |yns:-1 z-9:blue 7:x:y x:7. | 
1 2 'tag1 |a_feat:-1 1:0.5 w42:1E-3 z-9 Größe:0
-1 2 'tag1 |Ans:0.5 :0 w13:7. 1:0.1234567 |x1 w10 w41:0.1234567 42:x:y |B word:ab12
1 2 |b_feat x y w6 123456:-0 |  |A :blue x:3e2 a.b w42 |y_feat the_man:7. z-9 w28:0.5
-1 |z w49:7. |x1 :blue 123456 w33:blue the_man:0
1 0 'tag1 |y_feat w13:-0 w3:blue w2:0 w5:0 |z 
1 'tag1 |z:-1 x
1 'tag1 |xns the_man:2 w21:0.5 |bns w37
-1 0 'tag1 |a f1 a.b:x:y :3e2 :red
-1 0 |c1 w25:7. |x 42:-0 :1 f1 z-9:-1.25 |x1 f1 4294967295:0.1234567
1 0.5 |a_feat  |a1 123456:red 98765432109:0.1234567 :3e2 z-9:ab12
-1 0t2|z:0.5 x:0.1234567 |z w9:-1.25 :red x:2 f1:blue
1t2|  |zns w10 :1 |b Größe:0.1234567 x w32:red w41:red
-1 |a1:0.5 a.b 123456:7. |c1 :red x:x:y w34 |x w48 y:-0 w49 |ans 42:3e2 f1:3e2 4294967295:2 w34:ab12
1 |B w38:0.5 y:2 w45 1:0.1234567 | :2 w42:x:y 98765432109 | w12:-1.25 f1:1E-3 Größe:blue 123456:1E-3
-1 |y1 
-1t2|c z-9 |B_feat 123456:red | 
1 0.5 |a w7 Größe:blue
-1 0 | w21:-1.25 |b1:2 w31:1E-3 w19 w4:-0 |a f1 w42:ab12 w22 |A 
-1 'tag1 |bns w13:0.5 :1E-3 f1:-1.25 the_man:1E-3
1 |c y w4:0 w0:-1.25 w19 | Größe:1E-3 w21
1 'tag1 |x 
-1 0 'tag1 |A 1:0.5 w3:blue w24 w36:red |y1 f1:blue 0:3e2 |x_feat z-9:-1.25 1:3e2 |y a.b:1E-3
1t2|  |B1 f1:red w23:x:y a.b:0.5 98765432109:2
1 |yns 
1 'tag1 |bns:-1  | w42:1E-3 42:2 98765432109:-0 |yns w6 98765432109 w7:ab12 f1:blue |B the_man f1:x:y
-1 0 |c w24:3e2 |z 
1 0 | :1 z-9:0
1 2 |  | 
-1 |x_feat a.b |x_feat word:0.5 f1 7:ab12 |B1 w32:0.1234567 w16
1t2|y a.b:blue 1:0.1234567 f1:7. |c_feat  |c:2 98765432109:2 |B1 0 w7:2 123456:-0
1 |x w35 f1 | 0:1E-3 | w3:-1.25 a.b:3e2 :1 w14:red
