1 0.5 |cns  | z-9
1 0.5 |xns  |  |a1:2 
-1 2 |x :0.5 :1 |c w37:ab12 123456 1
1 0t2|x 42:red w11:0.5 w14:-1.25 4294967295 |z1 
1 0t2| w32:0 :-1.25 |x_feat the_man a.b w29:ab12 42:2 |A_feat:-1 w46 |x:0.5 42:1E-3 y:blue
-1 0t2|bns:-1 :1 f1:ab12 w48:0.1234567 |z  |b  |y 0:blue
-1 |A w36 w37:0.5 w19 y:blue |cns z-9
1 0.5 |A:-1 Größe:0 Größe:x:y x:ab12 |B:2 w39 w34:2 w28
-1t2|A1 :1 word w46:0.1234567 |x1 98765432109 |A_feat  |x:0.5 f1:-0
1 0.5 |Bns w29 w9:-1.25 w44:ab12 |xns  |a y:7.
-1 | w16 |cns:0.5 42 x:7. f1:-1.25 |y 1 the_man:-1.25 w45 | w8:-0 w23:red
-1t2| :1 w7:0.5 the_man:7. |y1 w1 w15:red the_man:ab12
1 |A1:2 w46 w0 word 4294967295 |x w21 |c  |c:2 :1
1t2|Bns w34:-1.25 |B1 f1 w28 42 w30 |A_feat w0:0.1234567 w40
-1 2 |xns :blue word:2 y:7. a.b:7. |A1 the_man:0.5 1 x:ab12 42:x:y |x w10:red 0
-1 0 |x_feat the_man:x:y x |y_feat:2 x:x:y w36 a.b:1E-3 |xns w30 x:red w39:0.1234567 the_man
-1 | w0:-1.25 |c:2 x:blue x:-0 |b 42:-0 98765432109:2
1t2|c_feat the_man:-1.25 :1E-3
1 2 |x 
1 |z_feat 
-1 0.5 'tag1 |zns 42:blue Größe:blue 42
1 |x1 z-9:ab12
-1 0 |A:2 
1 0.5 'tag1 |Bns w21 z-9
-1 'tag1 |x w37:-0 w0:-0 w11:0
-1 |z:-1 
-1 2 'tag1 |  |c :1E-3 w10 Größe:0 |A w39:2 w33:0.1234567 f1:-1.25 | w5:red w9
1 |A w39:red |bns x:ab12 w44:x:y w16 |A:2 w32:red word:red w9:blue 4294967295:1E-3
1 2 |a 4294967295:blue 7 x
-1 0.5 |y1:0.5 w42 w20:0.1234567 w32:2 x:7. |Ans :1 |b :-0 w44:2 w37:ab12 | y :0.1234567 :7.
1 |x1 w37:0.5 |xns w39:1E-3 a.b:x:y Größe:blue 1:7.
1t2|b_feat:-1 :ab12 98765432109 4294967295 the_man
1 |c_feat :1 a.b:red word the_man:3e2 |z1 0 1 |y y w23:0.5 :1
1 |b w10:blue w44 :0.5 w37
1 0.5 |A:-1 the_man 7:0 |A_feat 4294967295:0.5 w18:-1.25
1 2 |x w49 x:0.1234567
1 0 | Größe:ab12 |cns:-1 
1t2|ans the_man x:x:y |yns :-0 98765432109 |ans:2 w44:red |y_feat:0.5 123456 w39:3e2 :0.5
-1 0 |a:2 w22:ab12 |b y 4294967295:ab12 w29 x | w41:3e2 w8:0.5
-1 0t2|bns w32 w25:blue |x1:2 123456:1E-3 :1 w28:-1.25 7
1 2 | 7 w1 f1 Größe
1 2t2|z1 Größe:-0 |  |c_feat  |B:-1 98765432109:blue f1:0.5
1 'tag1 |A_feat word:0.1234567 |b1 w21 123456
-1 |c:-1 
1 0.5 | w42:blue Größe:red
-1t2|A :0 |b1  |a Größe:1E-3 the_man z-9 | z-9 w46:red
-1t2|  |B_feat 42 | f1 |zns y:2 :1 42:red x:-1.25
1 |z_feat  |ans:2 a.b:ab12 |B1  |a z-9
1 0 | y:7. w20 |c_feat 1 1:x:y
1t2|x  |bns f1:3e2 4294967295:-1.25 the_man:0.5 w20:ab12 |B 
1 'tag1 |  |x y:red 98765432109 Größe | w44
-1 2 |B the_man:0 w8:7. w37:-1.25
-1 |y_feat:2 x:blue 98765432109:2 w0
-1 2 'tag1 |  |y:-1 w38:7. :1 |cns w8:7. 0 w43:1E-3 1 | :1 f1:-1.25 w32:ab12
-1 2 |y_feat  |zns the_man:red word:-0 1 f1:3e2
1t2|  |y f1:ab12 Größe:0 w8 42:ab12
1 0.5 |Ans y:1E-3 |z_feat:-1 the_man:blue |a 
1t2|x1 :red x:-1.25 1 |x:0.5 123456 w19:blue a.b:0.1234567 Größe:7. |a_feat y word:3e2 |cns w7:7.
1 2t2|A :0.1234567 :3e2 |a word:3e2 w46:-0 w43:0 |c_feat:2 :blue w49:1E-3 w40 |Bns w1 98765432109:blue a.b:1E-3
-1 2 'tag1 |b:2 123456:-1.25 :blue
1 2t2| 7 z-9 w40:0 w31:x:y
-1t2| w13 |x_feat a.b:-0
-1 0 'tag1 |A Größe the_man :blue w32:1E-3 | Größe word w5 w40
1 0.5 'tag1 |c 
-1 | w36 |a 
-1 |y1 w16 w11:-0 :0.5 | :0.1234567 w12:3e2 42:-0 Größe:3e2
1 2 |Bns w35:0 42 Größe x:-1.25 | w22:1E-3 7 | :blue x:0.5 f1:ab12 98765432109:blue |B 42:0 w35:7. w9:7. the_man:x:y
-1 0 |x_feat 
-1 |z word :3e2 w45 98765432109 |b1 98765432109:0.1234567 42:3e2 the_man:1E-3 Größe:1E-3 | 42
1 'tag1 |a w39 0 42:3e2 |zns 
-1 0 'tag1 |z 42:7. :1 :-1.25 |B the_man f1 |y_feat x w37:red 7 |a w45:0 w13 x:0.5
1 0.5t2|B_feat:2 w41 w31 w21
-1 |z1 4294967295 |B the_man:x:y 42 w49:3e2 the_man:blue
-1t2|cns w29:0.1234567 |y_feat  |x1  | :1 w2 a.b 1
-1 2t2|xns:0.5 w11
1 |  |a1  |xns 42 1 w3:0.5
-1 0.5 |x1 f1:blue |a:2 1:x:y z-9:-1.25 w43 |cns the_man :1 w47:x:y z-9:0.1234567 |a w21 x:x:y :1 w13
1t2|c the_man f1
-1 |A:0.5 y:x:y :blue :1
-1 'tag1 |B1 a.b 123456:-1.25 w47:0.5
1t2|xns w16:x:y w39 the_man |bns :1 y:blue word
-1 0t2|x_feat 1
-1 'tag1 |z1:2 w40:red w18:2 w43:ab12 |y 123456:-1.25 Größe:7. x:3e2 | 1:0.1234567 w11:ab12 :1 x:x:y
1 'tag1 |B1 z-9 |a w39 |z 42:-1.25 |yns :1 123456:0.5 z-9:0 1
1 0.5 'tag1 |A1 the_man f1:red
1 0 'tag1 |z w46:3e2 w30 |yns  |  | w48:0.5 w36:7. a.b
-1 0.5 'tag1 |xns w1 7:-1.25
1 2t2|A  |y_feat:2 f1 Größe:red 4294967295:-0
-1 0.5 |z 
1 0t2|a:2 y:0.1234567 w28:x:y w21:0.1234567 98765432109:x:y |B1:-1 w45 w18:-0 | the_man:-1.25 z-9:0 7:-1.25 w13:ab12 |y1 0:x:y x:-0 1
-1t2|B_feat w16:2 |Bns 
-1 'tag1 |A1  |Ans:0.5 w9 z-9:ab12 y:-0 |  |B w25
-1 2t2|y1:0.5 w48:0.1234567 Größe:x:y |y1 :1 w24 123456:2 the_man:0 | w25:blue a.b:0 w35
1 | :x:y f1 :1 |y 98765432109:0.1234567 a.b:1E-3 word |a_feat :0 | 1
1t2|B f1 a.b :3e2 | w16:2 w6:-0 w14 |B y
1 2t2| w34:2 | w27 y:0.1234567 |z w42 |B_feat :1 w16:0.1234567
-1 2 'tag1 |y w18:7. w28:0.5 :1 | Größe w14
-1t2|c  |y w11 x 1
1 2 | w44 1:x:y |  |yns :-1.25 1 1 42:0.5 |z 123456 z-9:7. the_man:red w26:3e2
1 0.5 'tag1 |A:2  |A_feat 123456:0.1234567 f1:1E-3 word:0.1234567
