1 0.5 |yns a.b w25:-0 :7. |ans w4 | w24 7:blue
1 'tag1 | Größe z-9:0 word:x:y a.b |x 0:1E-3 w31:x:y
1 |a:2 w2 w38 f1:ab12 w18 | w46 123456:red
-1 'tag1 |x_feat w45:red |B1 w13:x:y |c_feat:0.5 w11:7. w38:2 123456
-1 0 |z_feat 98765432109:0 w12:ab12 | 42:7. w23
-1 |x_feat word:red y:0.5 |x_feat 7:blue w47:3e2 the_man:ab12 |A_feat  |B_feat w38:red
-1 2 |c1 
-1 0.5t2|z w25:7. :1 the_man 98765432109 |a1  |z_feat  |a1 w19 f1 w20 x
-1t2|Ans  |A :1 |B word:red |yns:2 0:red word :3e2
-1t2|A_feat 4294967295:7. w20
1 'tag1 |A:2 Größe:2 f1 |B  |b1:2 a.b :3e2
-1t2|c1:-1 w30:2 w24 | 1:0
1 |ans 1:1E-3 98765432109:red word:0.5 0 | 
-1 0.5 | :1 a.b w30:1E-3 |A_feat 1 w6 the_man w34 |z1 z-9:-0 word :-0 |B_feat w45 w43 :1 w26:blue
-1 'tag1 |c z-9:1E-3 :0
1 0 |y w29:red f1:7. z-9:1E-3 | the_man x |c w12:0.1234567
1 2 | w3:1E-3 the_man:0.1234567 |x1:0.5 :2
-1 |bns w21 123456:0 |y 
-1 |Bns:-1 w9:ab12 |ans 
1 0 |  | w46:3e2 w5:2 :1 the_man |Ans w2 f1:blue 4294967295 w2 | word w22:x:y w33:-0 x
1t2|y_feat  |a x:0.1234567 the_man:3e2 z-9:-1.25 word
1 2 'tag1 |c  |c1  |a_feat w3:blue w42:-1.25 word:x:y w1:0.5
-1 'tag1 |y f1 w13:2 |a:2 w35:0.5 w22 x:3e2
-1 |B  |y_feat w1:2 w15:3e2 w32:red
1t2|Ans y:7. word:-0 word:-0 | w23 :1 |b 
1 | 7:red Größe:0 :1 f1:-1.25
1 0.5 |y word:red | w43 |xns 0:x:y z-9:0 |Bns f1:red
-1 |A 0 0:1E-3 | w35:ab12 |x_feat  | 4294967295
-1 'tag1 |A:0.5 y:x:y w44:7. w28:7. y:ab12 |ans 
-1 |a w30 0 | w22:ab12 :1E-3 |b  |b_feat:0.5 x:7. Größe:0.5
1 2t2|c_feat 98765432109
-1 2t2|  |zns z-9:1E-3 y:-1.25 |cns  |a_feat word
-1 |yns w33:0 word:-1.25 Größe
-1 'tag1 |bns  |a :x:y 42 7:blue |a_feat w7:ab12 a.b:x:y :0.1234567 the_man:blue | x :7. :red
-1 |y 42:-1.25 y:ab12 the_man:ab12 | f1:blue 42:7. 123456:0
1 0.5 |a w11:3e2 w23 z-9 word
-1 2 | w23:3e2 w36:0.1234567 123456:0.5 |A z-9:2 w20:3e2 z-9 w37 |A_feat  | :0.1234567 98765432109:0.5 z-9
1t2| 7:-0 98765432109:1E-3 Größe f1
-1 'tag1 |  |z1 42:ab12 7 y z-9 |b:2 
1 0t2|c 0:ab12 42 w38 :ab12
1 'tag1 |Bns :blue the_man w46:blue word:0.5 |y1 :0.1234567 123456:0 |bns :1 y
1 0 'tag1 |xns 
-1 0.5t2| x w35:0.5 |c_feat 7:7.
1 2t2|a1 the_man:ab12 the_man 42 w46 |bns:0.5 7 word:1E-3 123456 |b :3e2 w15 |B1 w47:1E-3 x:0.5
-1 |ans:2 w20:1E-3 word w5
1 |y 123456:red w22:blue w44:-1.25 w48:3e2
1 0 |b1 f1:-1.25 :1E-3 :1 0:2 |ans w19
-1 2t2| 
-1 |x1  |zns f1:red
-1 |yns w44 w17:2 1:x:y w6:2 | 123456:0 :1 y y:ab12
1 2 |a_feat Größe w22 w23:ab12
1 0.5t2| w16 | f1:x:y w2:1E-3 |b_feat Größe w10 w15:2 1:ab12
-1 0.5t2|a:-1 w0:7. w22 42:0.1234567 |x  |zns:0.5 7:0 w10:0.5
-1 0.5 | :1 w5:red w34:0.5 |z 98765432109:-0 w1 | 4294967295:-0
-1 2 | the_man:red z-9 | y:3e2 z-9:7. |xns w14:ab12 f1 z-9:0.1234567 |y 7:0 x:3e2 w6:2 word:red
-1 |x  | 98765432109 | f1:-1.25 123456:0.5 x Größe |B1 w48:-0 w3:0.5 w15:0
-1 |  |cns y:1E-3 a.b:-0 w9:7.
1 0 |B  |y w18 :blue f1 | :0.5 98765432109:ab12
1 'tag1 | Größe:2 7 |  |y_feat 123456:1E-3 w30:0.5 |B:2 w18
1 'tag1 |ans:0.5  |B w33 w3 w28
1 |x_feat :0.1234567 word:7. w30:ab12 |Bns 1:x:y the_man:ab12 w2 |x:2 w37 x w38:-1.25
1 0.5 |x  |x w42:0.5 |B_feat w27:3e2 a.b:0.5 :0 :1 |A_feat 
-1 0.5t2|A w42:red w6:-0 |A1 :1 Größe:x:y w13 w21 |B_feat 4294967295 w25 |xns w12:0.1234567 7:x:y
1 0 |b 42 w49:-1.25 w28 Größe:1E-3 |B:2 w14
-1 'tag1 |B_feat x:7. w23 w38 w45 |z_feat :1 the_man:7. :1 |c1 word:-1.25 z-9:blue 1:red |a1 
-1 |x1 
-1 |a:0.5 w49 | 
1 0 'tag1 |x_feat w3 w41:0.5 w37:red |A1:0.5 w33 |z1  | 0 a.b:x:y
-1 'tag1 |Ans:-1 the_man:x:y w10:0.5 1 |A1 f1 0 y:-1.25 w27:blue |bns w23:2
1 0.5 |b_feat :red z-9 a.b
1 0.5 'tag1 |Bns:-1  |b_feat :1 z-9 the_man:3e2 | 98765432109 |a1 f1:-1.25
-1 | 42 the_man:3e2 42:2 1:1E-3 |a w40 w41 |c 98765432109:ab12
1 0 'tag1 |b_feat:0.5  |a w8:2 f1:x:y f1:-1.25 w42:3e2 |Bns :2 0 |c_feat:-1 x:x:y a.b:0 w13:x:y a.b
1 | 
1 |y x:-0 x:2 y:red |b :1 z-9
1 'tag1 |a1 :red |yns x:red | w42 word:-0 | 0
-1t2|x_feat  |x_feat:-1 
1 2 | 4294967295 w44 w19:ab12 | w8:-0 Größe
-1t2|a 
-1 0 |cns z-9:blue w13:0 z-9 w41 |b  |A_feat 123456:1E-3 |A1 :ab12 word 42:x:y
1 'tag1 | 123456:0.5 w13 word:red |z :x:y |c_feat 0:blue word:0
-1 0.5 |z:-1  |A:-1  |y_feat  |z:2 
1 2 |z:2 f1 z-9:0.5 f1 | w29
1 0.5 | w24:3e2 w10:0.1234567 |y_feat:0.5 w38:ab12 y:red Größe :1 |xns 98765432109:0.5 :3e2 w39:2 y:red |A w8:1E-3 w22
1 'tag1 | :1 w16:x:y word 0 |x f1:2 w19:0.5 |z :0.5 |x1 
-1 0 'tag1 |zns w24:1E-3 z-9 |c w15:0.5 y:0 :0 z-9 |y 1:1E-3 | :1E-3
1 |y_feat  |yns y:0 4294967295:blue 1:blue
1t2|  |a_feat w22 f1:0.1234567 z-9 :1E-3 | w37 :1 x:0.1234567
1 0.5 'tag1 |z w16 the_man w3:ab12 123456:2 |z_feat x w34:-1.25 w48
-1 0 |A1 
1 |x_feat  |A1 w39
1 2 |z_feat w9
-1 2 | the_man:2 |y_feat a.b:2 w37 w26:blue |b  |a w20:ab12 x :red word:3e2
-1 | w3 :0.5 w39:ab12 w42:2 |c f1:0.1234567 w38:ab12 a.b:0.5 |cns w16:0.5 word:red w33:0.5 | w19 f1:-0
-1 2 | 42:-1.25 w17:0.5 4294967295:2 :7. |a w4:-0 |a w0:3e2 w44
1 2 |bns z-9
-1 |zns  |a:0.5 42:2
1 |z1 w8 |B1 w3:blue |a1 w35:1E-3
1 | 
-1t2|ans:-1 w2 w4:ab12 w4 f1:1E-3 |A1:-1 w39:3e2 123456
