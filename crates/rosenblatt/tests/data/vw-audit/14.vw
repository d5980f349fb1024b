1t2|c  | z-9 w23:3e2 the_man
1 |cns:0.5 x:ab12 x | word w22 w3 f1 |ans  |bns Größe a.b:-0
1 2 |B1:0.5 w2 |y 7:0 0 42:-0 x | z-9 4294967295:red z-9:x:y | w0 w26
-1 |b x x:1E-3 |  |c 
1 |cns w34
1 |z1 w45 |b Größe:-0 w5 w6:3e2
1 0 |ans :1 |Ans:-1 4294967295:7. |c1 
-1 |x_feat:0.5 word:1E-3 :1 | w16 a.b:7.
1 | 7:ab12 w14:x:y w9
1 'tag1 | w47 :1 word |A1 Größe:x:y w26:x:y
1 |bns w41 f1:x:y w37:x:y w25:-0
-1 0.5 | Größe:blue x:1E-3 z-9:0 w30 |a  |cns z-9:0 y:1E-3 |b w19:blue
-1 |z w17:0 7:0.5 a.b:-0 y:1E-3 |y_feat:0.5 :1 :1E-3 w11:blue |y1 w46 |xns w19:2
1 0.5t2| 7 :-1.25 the_man w35:x:y | :0.1234567 x |A_feat w15:1E-3 word
-1 0.5 |Ans :0.1234567 x w29:7. |c_feat 1 |c w41:red w21 |ans w15:-0 y x w5
1t2|yns f1
1 |b1  | z-9 |x a.b 123456 w12:red w40:blue |A 
-1 0 |z the_man:x:y 42 f1
-1 |a1 w12 f1:ab12 |A1:-1 w23:-1.25
-1 0 |y:0.5 w42:ab12 |c word:3e2 w37 |y w9:1E-3 w8 the_man:0 | 0 x w39:2
-1t2| Größe:-0 w47
-1 'tag1 |z_feat:2 a.b:0 w20:red |b the_man:-1.25 the_man:0.5 f1
1 |  |A1 42 |b_feat w19:7. a.b:-0 |A1 4294967295 42 a.b:blue w6
-1 'tag1 |  | w10:blue |Ans 4294967295 w0 :2
-1 2 'tag1 |cns:-1 w3:red w4:x:y x:blue |z w44:0.1234567 w1 w29:red x:1E-3
-1 0.5 'tag1 |a_feat  |z 42 the_man w26
1t2|  |B_feat:2 w15:0.1234567 |xns :1
1 2 |  |Ans f1
-1 2 |y:0.5 the_man word:2 :1 :x:y
-1 'tag1 |zns y:2 a.b f1 |y1  |z  | w29 the_man:red w25:red
1 2 |Bns  |A1 z-9:0 w30 x:-0 w45:x:y
-1 | Größe word w31:-0 |c w34 w37:x:y |a1 0:1E-3 x:-0 w5:1E-3 |Ans:0.5 w14:x:y word:-1.25
-1 2t2|xns the_man:1E-3 :3e2 7 w5:2
1 0.5 |cns  |y_feat w42:0.1234567 w0 |z w24:3e2 |z w15:ab12 f1 w10
1 0 'tag1 | Größe 42 z-9 :0 |b w45 z-9 |c1  |B_feat w32:7.
-1 0 | w2 |x 
1 2 |yns 1:blue |z w20:x:y w36:0 w45
1t2|A x:0.1234567 word:1E-3 x:red Größe:blue
-1t2|bns w41:0 w16:x:y |z 4294967295:0.5 word w27:3e2 0
1 2 'tag1 |c_feat:2 :ab12 |B_feat 42:-0 w21:x:y | 7 :2 |y:0.5 y:0.5
1 2 'tag1 |xns f1 |Ans z-9:red x:ab12 |A word:x:y 0:0 0
1 0.5 |x  |b 7:2 | 
-1 'tag1 |x f1:red f1:ab12 a.b |x y :1
1 |b1 w32:-1.25 the_man:blue |a:2 w40 word
-1t2|y:0.5 123456 w47:2 |y z-9:2 w37 4294967295 f1
-1 0 |y:0.5 0 Größe:3e2 123456:1E-3 :1 |y1 0 word:0.5
1 2 'tag1 |x_feat w27:7. 7:2 0 w44:7. |z_feat  |B w42 word:3e2 |a_feat:-1 Größe:0.1234567 the_man:2 1:2 w28
-1 0.5 'tag1 | w36 1 |z1 x:-1.25 w42:-1.25 0:1E-3 y:0 | w34:0 f1 |c1 w42 a.b 42:ab12
-1 2 'tag1 |x:0.5 z-9 the_man:2 123456 | 42
1 0.5 'tag1 |x_feat:0.5 w3
1 | w12:blue z-9 |Ans x:2 Größe:2 :2 z-9 |y_feat w25:1E-3 w30:blue |a Größe:0 z-9
1 |z1  |y  |b1:-1 
-1 2 |zns Größe w43:x:y :0.5 x:0 |yns w12:1E-3 z-9:x:y w35
1 |x1  |xns:2 the_man z-9 7:-1.25
-1 'tag1 |b  |b 0:0.5 98765432109:2
1 0 'tag1 |xns:-1 
-1t2|Ans 42:red 123456:ab12 word:ab12 word:red |b_feat w11 z-9:1E-3 :1 |y  |z_feat:-1 
1 | w46 Größe
1 'tag1 |z1:-1 w15 w45
1 | f1:-1.25 z-9 the_man:0.1234567 w25 | :1E-3 98765432109 :1 123456
1 |bns w39 42 w37:0 x:0
-1 2 |b1 42:x:y Größe |x_feat 123456 w40:red z-9 w21
1 |c w31:0 42:3e2 f1:blue w22 |bns w12 a.b:ab12 w33 w16:red
1 'tag1 |a w17
-1t2| w20:red the_man:blue 0
-1 0.5 'tag1 |yns  |B1  |a:-1 
-1 0.5 'tag1 | x |y1 y:2 :1 0 w32
1 0.5t2|zns w27:x:y w21:7. f1 the_man |B1 4294967295 98765432109 42 w32:blue |ans f1:-1.25 0 y:red w40
1 |Ans the_man |y 42:3e2 Größe:0
-1 | w41 a.b:1E-3 x:2 w36
-1t2|z1 :1 w37 word |x :3e2 |Bns f1:x:y |b1 the_man y w44
1 2t2|A :1 y:3e2 |b1 word:0.1234567 :1E-3 f1 w12 | Größe:7.
-1t2|A1 word y w35:x:y | x |A 
1 |yns:2 x:-1.25 w25:0 7:0.5
-1 0 |B  |B1 :1 z-9:0.1234567 w34:x:y 4294967295 |y w14 1 |z_feat 42:1E-3 :1
-1 2 'tag1 |B  | w4:2
1 |A1:2  |yns  |B f1 :1 | :1 w18:0.5 :0.1234567
1 |z w45 w9 w14:0.5 4294967295 |b_feat 123456:0.5 word w43:3e2 | 0:1E-3 :3e2 z-9:0.5
1t2|bns 
1 0 'tag1 | :-1.25 w35:-0 w38 |x1 w49:-0 :2
1 0 'tag1 |z w4 |y w14:0 w0 f1:1E-3 w39:red
-1 0t2| 123456:2 z-9:red :1 w37 |zns:2 Größe 1 98765432109:2 y:-0
1 'tag1 |a w19 42 :1 |z 
1 |Ans  |y_feat 4294967295:0.1234567 a.b | 98765432109:x:y 7 1 f1:x:y
-1t2|  |Bns:2 f1 w45 w10 z-9 |zns 1 1:7. x:3e2 123456:red
1 0.5 |a :1 z-9:-1.25 |c1 z-9 1:blue :0.5 word
-1 2 'tag1 |c w15:2 |x_feat w20 98765432109 w5 w45:-0 |x:2 word:-1.25 4294967295 :0 f1 |Bns 
-1 |a_feat  | word:-1.25 a.b:ab12 Größe:x:y w9:0
1 |b  |z_feat a.b:red 4294967295:-1.25 |c f1 w30:0 word:ab12 7:blue |b_feat Größe 98765432109:0 w25:-1.25 w5:ab12
1 'tag1 |y1  |  |yns y w27:-1.25
-1 |y1 Größe |B_feat w21 |x the_man:3e2 7:0.5 w42 |z_feat w37 42:-1.25 w28:0.5 :blue
1 'tag1 | w48:-1.25 z-9 0:0.1234567 w20
-1t2|ans 
1 'tag1 |x w21 w28 Größe w35
1t2|B1:2 
1 |y_feat a.b:blue w41 w25:ab12 |z_feat a.b:0.5 x:blue |y1  |B w23:blue x:0.1234567 z-9:0.5 :1E-3
1 0 |B1 word 1:3e2 |b_feat :1 w35:0.5 w9:x:y w10:2
-1 2 'tag1 | w4 0:3e2 | the_man Größe:0.1234567 |y w4 :1 w13:red
-1t2|B:0.5 z-9:0 123456:0.1234567 w4 |B w34 w20:blue
1 0.5 | a.b:ab12 |b w1:ab12 word:3e2 w39 | f1 a.b w28
