1 2 'tag1 | Größe y:ab12 w3:0.1234567
1 0 |y1 Größe:1E-3 z-9 |c_feat:-1 Größe
1 'tag1 |a x w48:0.1234567 :1 |A1 
1t2|z_feat  |A1  | word:0.5 the_man:0.1234567 1:0 w6:1E-3
1 |A_feat a.b w4:0.1234567 |zns:-1 w32 |z:-1 the_man
1 0.5 'tag1 |B_feat w48:7. w22:blue word |c1:2 w47 | x z-9 4294967295
-1 |y_feat 123456:ab12 Größe:-1.25 x a.b:red |A1  |B_feat  |x w4:-0
-1 2 'tag1 |yns 98765432109:ab12 a.b:1E-3 w16 |c 7
1t2| a.b
-1 0.5 | 0:1E-3 :1 |A1  |yns a.b w7:red
-1 |B  |A:2  |x_feat 
-1 | z-9:1E-3 |A  |y w24 w33:1E-3 :-0
-1 0.5 'tag1 |b_feat 7:0.5 |A  |  |B z-9 w49:x:y z-9:2
-1 'tag1 |B w22:0.5 :1E-3 4294967295 | w25 w1:red 98765432109 w26 |y_feat  |z:2 w32:-0 the_man
1 0 |bns w23:-0 1:-0 w2:x:y
1 0.5 'tag1 | :2 y word | 
-1 0t2|A_feat:2 
-1 2 |x1 :1 | x:red
-1 0t2| 4294967295 w20:red x:1E-3 w16:ab12 |y  |c1 4294967295:x:y w28:0 :1 |b1 4294967295:3e2 x:7. 1 7
1 2t2|z:-1 
-1 'tag1 |Bns 98765432109:x:y |  |A:-1 f1:blue w48 :3e2
1 2 | 123456:-0 :1 f1 z-9 |b 
-1 2 'tag1 |z  |x :x:y w47
1 0 'tag1 | w11:1E-3 w32:red a.b |x1 4294967295
-1 2 |c_feat:2 w23 w36 |Bns 
-1 0 |zns:0.5 w24 Größe:0 w35 1 |  |Ans a.b
-1 0.5 'tag1 |xns w37:ab12 w19:1E-3 f1:-1.25 98765432109 |c_feat :1 w28 w31 :0.5
1 | y:3e2 f1:blue |a:-1 1:x:y w49:-1.25 Größe:0 w42:blue | z-9:0 w10:-0
1 0.5 |B_feat the_man:3e2 123456:2
1t2|bns w9 :2 z-9:1E-3 |z:0.5 w4 1:-0 123456:0.1234567 |y:0.5 w42:0.5 :ab12 |b 
-1 0t2|a_feat Größe:-0 |x Größe:2 |a x w38 4294967295 |x:0.5 
-1 0.5 |A1 4294967295 Größe w27 |A_feat the_man x:0.5 |y 98765432109:blue 1 w41:7. the_man |A1 :1 a.b:ab12 word:0.1234567
-1 2 'tag1 |A w29:blue w35 w35:2 :2 |B:0.5 
1 |x_feat:0.5  |Bns:2 98765432109:red w42 |Bns  | w19:ab12 a.b:-1.25
-1 0.5 'tag1 |B1 the_man:2 w32:0.5 |yns  |c :1 word:0.1234567 7:-0 the_man
-1 0 'tag1 |z1 98765432109:3e2 123456:x:y |cns 98765432109:7. y:red
1 'tag1 |yns:2 y:1E-3 :red the_man a.b |b:2 w2:0.1234567 123456 42 98765432109:red |a  |A1 w35:ab12 y:1E-3
1 |xns w44 w32:2 z-9:-1.25 |c :1 1 0:x:y
1 0.5 |B:2 w34 |b1 word 123456:3e2 w33
1 |a_feat w22:2 z-9 w8:-1.25 |Ans w32:blue 98765432109 :0
1 0 'tag1 | :-1.25 y:-1.25 123456:x:y |yns w11:1E-3 w12 z-9 w19 |z word the_man:0 Größe:x:y w35:-1.25
1 0.5 'tag1 |a :0 f1:blue w7:7. w0:-0 |Ans:-1 w43:0 Größe:7. z-9:blue w28:red |y :-1.25
1t2|a:-1 Größe 1:2 :1
1 'tag1 |ans:2 z-9:1E-3 98765432109 |bns the_man w35:red w49:1E-3 w34:1E-3 |A_feat:-1 w4
1 'tag1 |cns w24:ab12 f1:2 :2 0:red |Ans 0:blue |x w24:x:y w27:0 z-9:7. w46 |Ans :-0 z-9 w23:0.5 1
1 2 |  | :1 :2 123456:-1.25 w45:3e2
1 |a  |xns:2 
1 |zns y x:0.5
1 |  |A1 7:0.5 w43 |yns 0:1E-3 :1 y | x:blue
-1 0 | a.b:0.5 w20:red 4294967295:-0 |zns 98765432109 |zns :-0 y:7.
1t2|bns:2 y:1E-3 |xns Größe:-1.25
-1 |xns the_man:-1.25 w33 w45 w27 | 1:0 |y1 w44:2 :red the_man
-1 |z1  | 
-1t2|A  |xns:-1 w9 w44:0.5 a.b 123456 | word
-1t2|a_feat:2 w1:3e2 w28:1E-3 y:2
-1 'tag1 |b1 x w1 4294967295:0.5
-1t2|b:-1 
1 0.5 |x1  | z-9 42:3e2 w35
1 |Bns z-9:0.5 z-9:1E-3 word
1 0.5t2|Bns a.b Größe x:-1.25 word |b_feat 42:0 |bns:0.5 x:blue
1t2|xns 7
1 'tag1 |c_feat  |  |z w48:-0 | w36 :-0 w8:0 w21
-1 0.5 | w11:1E-3 y f1 |c_feat Größe w13 |bns x:0 |z :red 1:0.5
1t2|c1 w31:0.1234567 x:blue w40 w37 |cns  | w40:3e2 w30:3e2 w3 y:0
1t2|x w11 a.b |B:2 0
-1 2t2| w18 |B 42:3e2 | y |B:2 :1 w13 w12:-1.25 0
1 |cns  |x_feat:-1 :7. 4294967295:2 word 4294967295 |Bns w3:3e2 the_man:-0 4294967295:ab12 y:0 |y w16:red
1 2 |x a.b |b1 w44 w23 |zns  |y:0.5 w15:ab12 the_man
-1 | 4294967295 w20:0 w22:7. |A_feat:-1 :1 w5:0.5 y:blue 1:7.
-1 2 |z_feat:2 w11:0.5 z-9:-1.25 7 the_man:0 | w7:0.1234567 w31:3e2 |  | w6 w13:ab12
-1 0.5 'tag1 |z:2 :1 w16 |a a.b
-1 'tag1 | 0:-1.25 98765432109:-1.25 w16 w1:-0 | 
1 0t2| w16:7. w30:3e2 4294967295:-0 | w6:x:y w37:red w48:2 word | :0.1234567 a.b:x:y y:0.1234567
-1 |xns:-1 1 w43:ab12
-1t2|c_feat :1 Größe 1
1 |x_feat:-1 the_man:-1.25 |B w18 w25:0 :1 |ans 98765432109:1E-3 w23 :7.
-1t2|y_feat:2 w28 98765432109:red w37 |B  |a w17:-1.25 y:x:y | z-9
1t2|a :ab12 w17:blue | Größe w6 w48:blue w25 |yns 123456 w47 |z 0:7. x:1E-3
1 0t2|a1 w27:2 x |A1:-1 7:7. 42:ab12 z-9 123456:-1.25 | 
-1 0.5 |bns 7:1E-3 |xns w48:-0 x
1 |y_feat word:red |ans z-9 | word:blue the_man |a1 
1 0 |z the_man:-1.25 |z w36:-0 4294967295 |yns:0.5 4294967295:blue w0:red
1 0.5 | w16:3e2 w0 w46:3e2 | 4294967295 Größe:ab12
-1 |y w10:blue w34:2 w19:blue y:-0
1t2| w45:blue 98765432109 | w15 |c z-9:0 w9
1 |b  | 4294967295:3e2 7 98765432109 w30
-1 0t2|x w44 | w31:blue |a_feat z-9:7. w19 w14:x:y f1:0 |x 
-1 2t2|z_feat :1 x:-0 |z:-1 w39:0 |a_feat:0.5 42 a.b
-1 | w8:x:y word:2 |B_feat w15:blue :2 Größe | w23 w20 1:ab12 word:2
1 0.5t2|ans f1:-1.25 98765432109:ab12 1
-1 |x z-9:1E-3 1:blue w19:7. the_man:-1.25 | word:0.1234567 w31:red |  |c 
1 |B1 the_man :1E-3 :-1.25 x:ab12 |x_feat w40 z-9 w9:ab12 y:0.5 |c_feat w37 w18 w31
-1 2 |x_feat  |c_feat 
1 0.5 |B w35:ab12 1:0.5 |z1 x
1 2t2| w41 w15:7. 4294967295
-1 |bns z-9 |z1 :-1.25 4294967295:ab12 |x1 
1 |  |x y w14:x:y 4294967295:2 w47 |B 98765432109:0.5 7 Größe:7. | w1:7.
-1 0 'tag1 | w3:0.5 w37
1 0t2|x_feat  |A1 w2:7.
-1 |bns  |b1 
