1t2|c 0:0.5 x Größe:x:y w27 |B  | f1:1E-3 98765432109 123456:blue |ans w20:0.5
1 0 'tag1 | w30 w26:2 f1:2 |a_feat :1E-3 0 | 1:1E-3 :1 a.b w24
-1 0 |xns 123456 w37 |c 4294967295:1E-3 w1:red |y_feat a.b w38 w6:2 w43:1E-3
1 0 'tag1 |A:0.5 w14:blue the_man:7. |b word:0.1234567
1 0.5 'tag1 |y_feat f1 1 w39:-0 |x w34 y:1E-3 the_man w44:blue
-1 0.5 |b w33:red
1 |B y |c w3:3e2 f1 x:-1.25 x |b1 y :ab12
-1 'tag1 | f1:-1.25 z-9:0 98765432109 w3 |z_feat 1 y:3e2 0:0.1234567 |y  |A 98765432109:red 1:2 123456 w11:0.1234567
1 |y1  | 4294967295 :1 :blue w15:3e2 |Ans w35:red 1:-0 w10:x:y | w9 42:0 w37:-1.25
1 |z w18:-0 :ab12 w19 42 |xns 4294967295:blue
-1 0.5 |b_feat  |x  |y x:1E-3 x |b:0.5 
-1 2 'tag1 | 42 :7.
-1 'tag1 |b_feat:-1 a.b:0.1234567 w18:1E-3
1 |ans w41:-1.25 z-9 w9:-0 :7. |c:2 4294967295 Größe w2:ab12 a.b:-0 |bns  | y:red the_man:x:y w47 :3e2
1 0.5 |zns:0.5 w24 w19:0 w19:7. | w0
1 2 | z-9 word w39:2 1:x:y |zns w8 w49:0.5 |z 98765432109 |a_feat:2 42:0
-1t2| w25:x:y w46 w28:x:y |a z-9:blue word:blue |c 0:-0 42 w15:x:y
-1 | a.b:0.1234567 w38 w17:7. |y_feat a.b:0.1234567 x:0.5
1 | x 7 w30 7:2
-1t2|c_feat:0.5 f1 w46 w22:0.1234567 w28
-1 'tag1 |A_feat:2  |b w41 :1 98765432109:0.1234567 w0
-1 'tag1 |  |x w9:red | w14:0 98765432109:0.1234567
1 2 | 
1 | 98765432109:0.5 :0.1234567 4294967295:red |B_feat Größe:0.5 the_man:red w43:-0 w4:3e2 |ans the_man w13:7. w34:0.1234567
1 0.5t2|A_feat  |a  |y1 the_man 7:blue w18 |A_feat:2 w44 98765432109:0.1234567 w27
-1 2 |yns:0.5 w19:0 word:-1.25 |c:0.5 w23:2 1 |z 
-1 'tag1 |B_feat f1 w10:3e2 |A1 :1 x:red
-1 2t2|cns:-1 w35 |B_feat 123456 x:blue |y 42 w48:0.5 0 98765432109:7.
1 'tag1 |Ans:2  |z1 f1 w5:blue
1 0 |ans 
-1t2|a word:7. |a w11 |c:2 y:blue w17 Größe 123456 | w30 42
-1 2 |B1 42 42 :-1.25 word |c  |c w25:0.1234567
-1t2|xns 7:ab12 w21 w17 :1 |xns 42 w11:0 |a w49 f1 w23:red 0:x:y |z 42 w6:blue x :1
1 'tag1 |a 4294967295 w13:red |A the_man y:ab12 |B 123456:1E-3 |b:-1 x w40:0.1234567
-1 0.5 |A:-1  |x1 z-9:0 |z_feat Größe :ab12 :1 w37:0
1 2 |x_feat y:0.5 |A  |x_feat  |z_feat Größe w46
1t2|x_feat w23:-1.25 |A1 Größe:red z-9:blue f1:3e2 123456:0.1234567
-1 0.5t2| word:red word:7. :1 |z_feat:0.5 :0
-1 0.5 'tag1 |y w22:ab12 :1 w36:0.5 word |c1 w35:red |B:-1 y:0
-1 2 'tag1 |z 
1t2|yns the_man:3e2 |zns  |c y w10 123456
-1 0t2|Ans :1 word:red |c1 w46:1E-3 | :0.1234567 word w4:ab12 a.b:-1.25 |b1:-1 y:0
-1 0t2|a x w23 w24 |z w22 | a.b:0.5 123456 f1 |x_feat :-0 w47
-1 0 'tag1 | 0 w39 7:-1.25
1 'tag1 | 
-1t2| :1 42:2 Größe
-1 2 'tag1 |y1:-1  | word:0 |c:-1 123456 z-9:-0
-1 0.5t2|ans w47 4294967295 |A_feat :2 :1 |  |Bns :1 0 w25
-1 |x1:0.5  |A_feat 42:7. 4294967295:blue w12:red w8
1 |y1 1 w40:ab12 :red |a1 :1 the_man
-1 |bns w13:x:y | w15:1E-3 w4:0.1234567 |cns w35:7.
-1 |y1 y |Ans y:0.5 a.b a.b w38:x:y |y w10:red w23:7. the_man:-0 |z 42:red 4294967295
1 0.5 | a.b:blue w0:2 |c 4294967295:red w43:red y:3e2 w17
-1 |a z-9:1E-3
-1 0 |a a.b:x:y w8:1E-3 w18 |z_feat 4294967295:ab12
-1 |c_feat 123456:blue w40 :1 w41:0 |y1 42:3e2 w19 w31:-0 w12:-1.25 |y :1
1 'tag1 |b 0:0.1234567 w11:7. |Bns :1
1 | word:3e2 |a w20
-1 0.5 |z1 4294967295:x:y w1:0.5 w17:ab12 | w6:red |A Größe:-1.25 4294967295 0:0.1234567
1 0t2|y1:0.5  |c_feat :x:y |c_feat w25 0 w36
-1 'tag1 |A a.b:1E-3 w12:-0 w13:3e2 7:1E-3 |b  |A 7 4294967295:ab12 w11:7. w43 |c1 a.b :red :red
-1t2|A Größe:red |b the_man:ab12 w3:2 | y y w29 a.b
-1 | 
-1 0 |bns:0.5 w9 :1 w3:3e2 :0.1234567 |c 
-1 |c1 w35:2 z-9
-1 |c word:x:y f1 f1:-1.25 z-9 |xns 4294967295:red w6:0.1234567 |a word Größe:7. |A_feat:0.5 w22
1 'tag1 | the_man:red 0:0 |z:-1 4294967295:1E-3 w9 w42:2 z-9 |A_feat w34 w5:0.1234567 |b_feat w19 z-9
1 0.5t2|Bns:-1 w18 :1 | 42:-0 w27:-1.25 w24:-0 |x :1 |z 
-1 2 'tag1 |ans 
1 'tag1 | x w35 1:red |  |a 123456 y |x_feat:0.5 w22
-1 | 0:-1.25 |y1 42 y:3e2 |x:-1 4294967295:-1.25 a.b:3e2 word:red Größe:2 |zns w28:red w45:1E-3
-1t2|z  |cns  |y 7 1:0.1234567
-1 0.5 |A w36 |b 98765432109 f1:0.5 w7:0.5 |c1:-1 a.b:2 0 7
-1 'tag1 |b:2 w26 4294967295:7. a.b:1E-3 0
1 0.5t2|a_feat a.b:0.1234567 w16:x:y |b y w28:ab12 |z_feat w41 |B 
1t2|A1 4294967295:x:y 1:blue |z:0.5 42 w45 123456:ab12 :1 |b  |b w40:blue :7. the_man:0.1234567 :1
-1 0 |cns w26:x:y w29 |A_feat 7 0:-1.25 w7 Größe |z 
1t2|A 7:3e2 :blue |x  |y_feat 42:-0
-1 0t2|B  |A w42:2 |B_feat Größe :0.1234567 the_man:0
-1 0.5 |b_feat w0 a.b:blue Größe:0 |c1 y:0.1234567 w19:3e2 0:0 w46:x:y |b1:-1 :x:y |zns 4294967295:-0 98765432109 98765432109 w48:2
-1 |B :1 w27:-0 |Ans 4294967295:1E-3 z-9:red a.b:ab12 w17:0.5
-1 0.5t2|B1:2 w27 |B1:-1 w12:1E-3 f1:0.5 |c_feat f1:2 the_man:2
-1 0.5 |z 
-1 | 123456 |b 
-1 2 |z_feat w17:0.1234567 w45 123456:0 |c Größe:-1.25
-1 'tag1 |cns Größe:blue 0:blue y:x:y a.b:0
1 0 'tag1 |b w32:0.5
1 |cns 0:3e2 |z1 w39 123456:2 x w5
1 'tag1 |  | :1 |ans :red w17:7. 1
1 0.5 |  |Bns z-9:3e2 | Größe |ans:-1 w32:-0 4294967295 z-9 word
-1 'tag1 |b a.b |ans x:-1.25 Größe z-9:0 the_man:1E-3 | 123456:0.1234567 w48:x:y w21:2 |y_feat 
1 0.5t2|b Größe:1E-3 w48:ab12
-1 | w36 f1:7. |b w10:x:y w18 the_man:0.1234567 | 7:0 Größe:0 Größe:0
1 |yns w43 | 0:blue 4294967295:red w44:7. |x :1 |ans Größe:-0
-1 0.5 |x  |x1 the_man:-1.25 w34:1E-3 0:red
1 |a1 w28:0.5 w15:-0 w11:0.5 |a Größe:7. 7:7. |a_feat 123456:7. a.b:-0 z-9:1E-3 :ab12
-1 2 | :-1.25 the_man
1 'tag1 |B1 w34:0 |x:-1 98765432109 :0.5
-1t2| w45:-0 w28 f1:-1.25 z-9 |  |B y:-0 word:0.1234567 w11
-1 'tag1 |zns w5:-1.25 42:x:y a.b:0.5 |Bns:-1 w47:1E-3 0:blue |b_feat Größe:-0 w20:1E-3 w40:3e2 Größe:0
