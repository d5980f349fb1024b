-1 |y  | :1 word:red w39:1E-3 y:0.1234567
-1 2t2|A w42:-1.25 |Bns f1 |a_feat  | 7:1E-3 7:ab12 w44 42
-1 |a1 42:x:y 0 w17:1E-3 1 |b_feat 
-1 0.5 |A1 f1:-1.25 |z  |x:-1 :x:y
1 0.5t2|xns w8:red w41:x:y z-9 98765432109:-1.25
-1 |A a.b:ab12 :red
1 'tag1 |Ans:0.5 w31:0 1:-1.25 w3:1E-3
-1 0.5t2|cns 1:-0 :7. :1 Größe |y z-9 w14:0
1 'tag1 |A1 7:x:y 0:blue 98765432109:ab12
1 | w6
1 'tag1 | w13:7. |  | w47:0.1234567 w4:2 f1 :blue |y:2 w48:3e2 x w27:red 0:-0
1 0.5 |A_feat z-9:3e2 w19 0:red 1:0.5 |y1 w25:blue 4294967295:x:y 7:0.1234567 |ans w31 w25:-1.25 w18:blue y:7.
-1 0 |z z-9:blue w42 |B_feat 
1t2|A w49:red 42 w6:7. z-9:2 |c_feat a.b:0 w6 |x1 the_man w47:0.5 a.b :0.5 |bns 
-1t2|a1:2 Größe:blue w29:blue w46:0
1 0.5 |b :ab12
-1 | w31 42:blue a.b:ab12 w39:2 |B:0.5 f1:x:y w15 w32 the_man:0.1234567
1t2|b_feat:2 y 0:0.5 4294967295:-1.25 |Bns w9 word |  |a1:0.5 42
-1 | 
-1t2| f1:2 a.b 0:0 | 4294967295:red |a_feat:0.5 0:red 42:2 7:-0 w16 |y1 
-1 |c1 z-9:0.1234567 w36:-1.25 42:0.1234567 |  |c :0.1234567 x:red
1 0 'tag1 |Bns w46:7. word w45 | :-0 w24:red a.b:ab12 98765432109:red |z_feat w3 :0 42:-0 w39 | y:2 z-9:0 a.b 123456
-1 2 |xns w23 0:0.5 a.b:2 |yns  |x1 z-9
1 0 'tag1 |  |a1 0:7. |a_feat word
1 2 'tag1 |x_feat w3:red w8:0 a.b:red w27:2 |A_feat w13 1 w23 w47
-1t2|c1  |b_feat 
1 2 |y  | f1:3e2 the_man:0 |A1  |A w29 x:3e2 word:ab12 :1
1 2 | 4294967295:0 Größe
1t2|a_feat:0.5 w49:1E-3 |b_feat:-1 w20:0.5 word:-1.25 Größe
1 0.5 'tag1 |x:-1  |x1 1:3e2 w3 123456 |yns z-9:3e2 0:1E-3 :1
1 0t2|y_feat  |z 123456:x:y |B1 f1:0.5 w27:0.1234567 0
-1 2t2| :0.1234567 word:-1.25 w9 Größe:blue |y_feat  |zns :7. :2
-1 2t2|z a.b 0:-0 |yns y:red |z the_man w2 x:blue |a_feat:2 
-1 2 |b :1 the_man:red 123456 y:-1.25 |x1 the_man:-0 :blue |z_feat a.b:-1.25 :3e2 z-9:0.5
1 'tag1 | f1
1 0.5 |c_feat w6:0.5
-1 0.5t2| a.b:ab12 w5 w26:0 |B1 
-1 0.5 |A:-1 98765432109 f1:0 42 w21:0.1234567 |y w13:x:y
-1 'tag1 |x :-0
-1 |z1 0:-1.25 w19 :blue y |Ans 123456 :1E-3 :1 w6 |a1:-1 
-1 0 |x w36:2 98765432109:7. w24 |cns:2  |x w27:-0 w9
-1 |y1:0.5 f1:ab12 a.b
-1 |a_feat:-1 word:-0 |c_feat 7:red y:0.1234567 w4 Größe:3e2 | a.b 0:1E-3
-1 |b 1 w22 w25
1 |Bns y:3e2 :-1.25 |Ans:2 w35 x:red 123456 w28:blue
-1 'tag1 |bns  |a y:-1.25 w25:3e2 98765432109 |Bns:2 :1 w1 98765432109 Größe | w21:x:y the_man:7.
1 0 | w36:ab12 98765432109:-1.25 |xns 123456:1E-3 123456:red |c_feat 123456:1E-3 w13
1 2t2| w0:blue a.b |zns:-1 w23:0.5 |  |A 
1 0.5 |y_feat w40:2 f1 |A_feat z-9:red w18:3e2 w35 |a_feat 123456:ab12 the_man the_man:7. |c1 z-9
1 2t2|  |Ans word |B 
-1 'tag1 |b_feat  |B :1 7:1E-3 the_man:2 1
1 'tag1 |a1 
-1 |z_feat:2  |B_feat:0.5 w6 w10:red w8:3e2 w16:blue
1 'tag1 |c:0.5 y:red w37:ab12 w0 w28
-1 2 'tag1 | w12 w20:0 w49:3e2 y |z1:-1 f1 w36 |cns x:blue 123456:1E-3
-1 'tag1 |b 4294967295 |y1 123456 Größe:0.5 |a  |B 0:0.5
1t2|B  |A1 42 w39:0.5 w1 |a w39 a.b:-1.25 |c_feat:2 
-1 0 'tag1 | :1 a.b |b_feat word:0.1234567 y:1E-3
1 0.5 |x 0:7. w11:0
-1t2|b 7 w47:-1.25 word:0.1234567 |zns a.b:ab12 :-1.25 w36 | 
1 | w33:1E-3 98765432109 1:7. |a x the_man w35 |y_feat w13 98765432109:0.5
-1t2|a_feat 98765432109:2 | w9 w16:ab12 42 w25:-1.25
1 0t2|A z-9:0.5 |c1:-1 7:2 |ans :ab12
-1 0.5 |b1 
-1t2|y1:0.5 a.b:0.5 y:-0 w5 |xns  |xns the_man |x1:2 f1 the_man
1 0.5t2|y1 w25:x:y |x_feat:-1 f1:red
-1 |Bns:2 0 w23 |a y the_man :1E-3 |zns 
1 |B w0:red |z:-1 w35:ab12 |B  |a1 1:1E-3 :2
1 | :1 Größe |B_feat:-1 1 w12 z-9:-1.25 :0 | 
1 2 |  |A_feat z-9 |Ans y z-9 0 w23:x:y
1 2 'tag1 |b word:0 y a.b:-0
-1 0t2|A w16 w48 :1 w11:ab12 | x:x:y
1 'tag1 |A :3e2 |bns  | the_man w48 a.b:0 |c 
1 'tag1 |z1  |y :1 w4:0.1234567 f1:-1.25
-1t2| 123456:ab12 w26:-0 |a:-1 the_man:red y:1E-3 f1:-0 x
1 'tag1 |B:2 a.b a.b:2 |z1 
-1 'tag1 | a.b:-1.25 the_man:x:y | :0.1234567 w12:0.1234567 w2:ab12
-1t2| w43:0 word:3e2 w37:0.1234567 1 |x1:2 
1 0 |bns w27:0
-1 'tag1 |B 1 |yns w1:2 w23 word:3e2 the_man:red
-1 2 'tag1 |c1 0:ab12 x:0 w20:0.5 :1
1 2t2| w23:3e2 w49:red 42 |A y:7. |B:0.5 :0.1234567 7 Größe:0
-1 2 |b:2 w29 w38:0.1234567 |B1  |B :1
-1 0 | 123456:-0 123456:x:y w33:-0 x:0.5 |b:0.5 z-9 |a 
1 2 'tag1 |B :1 f1 w34:red
1t2|c_feat:2 :1 :-0 a.b:0 | Größe w27 |x1 
1 0 |x :0.1234567 w8:7. |x1:2 1:7. w21:1E-3
1 |ans Größe:1E-3 1 0:7. w36:0.5 | z-9 w32:red Größe:blue
1 |bns 123456:0 |z 
-1 0 |b_feat  |A1  |B_feat 1:blue 98765432109:7. | w22
1 'tag1 | :-0 |A1 4294967295:x:y
-1t2|y_feat y w27 Größe the_man:0.5 |zns x w32:1E-3 |z  |y :x:y Größe 7:-0
1 'tag1 |c1 f1:blue w14:1E-3 w1:0.5 |b1  |  |A1 
-1 |z word:ab12 a.b f1:-1.25 |x1 42:-1.25 w43 |ans :0.1234567 y |A 42 w33:ab12 w16
1 0 | z-9:ab12 w8:ab12 |zns the_man :3e2 Größe:3e2 w4:blue |cns word:2 x:3e2 w44 a.b:1E-3 |z1 
-1 2 'tag1 |b1 x:red w11:3e2 w14:red w36:0.5 | w47:7. w0:red z-9:0.1234567 |b:2 :0.5 :1 w15 42:x:y
-1 2 |A1  | a.b
-1 2t2|a 
-1 |x_feat y:blue |a_feat  |c a.b:blue w3:blue |bns:-1 7 y x 42
-1 |x Größe 7:x:y
