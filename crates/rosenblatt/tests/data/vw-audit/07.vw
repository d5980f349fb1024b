-1 2 'tag1 |B1:2  |c1 w41 w49:red
1 2 |y1 7:blue :1 |x_feat:-1 1:0 |y1 w45 f1:0.5
1 2t2| word w29:ab12 |z1 98765432109:3e2 1
-1 0 |zns word:0.5 w3:x:y w20:0 w43:3e2 |A_feat  |y1 w24:3e2 4294967295:blue 123456:1E-3 a.b
1 | 
-1 2 |z1 w18 :1 |z_feat  |  |y w48:blue w3:-1.25 98765432109:3e2 w47:0
1 0t2|y1 z-9 w44:-1.25 y |B_feat w22:-0 w20:3e2 w33:-1.25 |x:-1 :1
-1 |A1 w7 |  | w10:-0 42:blue
1 'tag1 |x 
-1 0.5t2| w6 Größe:blue |x_feat:2 x |x_feat word 7 y w48:ab12
-1 0.5 |z:2 w1:7. |A1 w4:7. x:ab12 f1:3e2 y:0.1234567
1 2t2|zns Größe:0.1234567 z-9
-1 |B the_man 7:2 |x_feat:2 w22:0 | 98765432109:1E-3 |z:2 w33 w10:3e2 123456:3e2 98765432109:-1.25
1 0 | w43 the_man :2
-1 0.5 | w26 w40:-1.25 word:blue the_man:-1.25 |A x:-0 |b a.b 7:red 1
-1 |b Größe |x_feat Größe
1t2| w45:0.5 x:1E-3 w14:ab12 | :1 1:7. the_man:1E-3 7 |B_feat w21 w25:0.1234567 f1:red the_man:blue |b1 a.b:-0 w19:blue :x:y f1:x:y
-1t2|ans the_man:red z-9:-0 |y1:-1 w29:x:y
1 'tag1 |B1 w7
-1 |B:-1  |Bns w10:1E-3 w26 w4:0.5 w48:7. | 
1 2t2|xns y:0 42:-1.25 w30 |B_feat w20 w26:-0 0:0.5 42:-1.25
1 0 'tag1 |y:-1 x:7. |z:0.5 w20 w30:red a.b w17 |xns:2  |b_feat w41
-1 |B1:0.5  |x w26:0 y:2 |bns  |c_feat a.b w13:0.5
1 0.5 |Bns the_man |b y w39 w43:3e2 w21:3e2 |yns 
-1 2 |a_feat w8 w5:7. |a1 w39
-1 0 |B w12:-0
-1 0.5 'tag1 |z 
1 |c 
1t2|b:2 98765432109:x:y
1 0 |c w37 :1 w49 1
-1 |b_feat a.b:red 98765432109:7. |z1  |bns :x:y :red a.b 123456:x:y |b Größe:-0 w32:2
1 2 'tag1 |x:0.5 w1 w14:0.1234567 w6:ab12 x |z a.b:0.1234567 0:-1.25 w8:0.1234567 w15 | 98765432109 |Ans w3:red
-1 0t2| 
-1 2 |Bns  |zns w48:7. 123456:x:y |z 1:2
-1t2|bns Größe 4294967295 |Bns:-1 w37:3e2 |B :-0 |c:-1 word w36:1E-3
-1 0 | y |A word:x:y |y 0:ab12 a.b:2
1 2t2|x_feat:2 Größe 4294967295:blue f1
-1 |z1 w27:-0 f1
1 | a.b:0.1234567 |b 98765432109:2
-1 'tag1 | Größe the_man:blue 4294967295 :0.5 |xns 
1t2|B_feat word z-9:0.1234567 7 |z_feat y:0 |b w2:2 w26:0.5 42:x:y |y_feat :1 :-1.25
-1 2 |a1 98765432109:0.1234567 w19 :x:y 7:-1.25 |xns:-1 
1 'tag1 | Größe | w12:red
1 2t2|A1 z-9:blue |b1  |c w22:1E-3
-1 'tag1 |z1:-1 123456:3e2 4294967295 0:1E-3 f1
1 0.5 |A w18:3e2 w18:2 :blue word:red |z1 
-1 0.5 'tag1 |y1 :1 word:0
1 0 |x1 the_man:0.5 :1 |a1 :1 w48 w34:-0 |ans 42:x:y y w13:0.1234567 w15:red
-1t2| 
1 0 |c_feat :1 w19 Größe:7. x
-1 2 |  |A:2 w19 |y_feat w6:-1.25 w20 w2:-1.25 w35:1E-3 |z w17 w4:3e2
-1 0.5 |Ans 1 7 |A:-1 0 w0:-0 Größe:blue z-9:1E-3 | w22 w12 f1:blue
-1 0 'tag1 |c1 42 a.b w9:red w46:ab12 |ans 
1t2|c :3e2 :1 0:ab12 w25 |Bns f1:1E-3 |y w36:0.1234567 w38:blue a.b
1 0.5t2|z_feat w1:0 w15:7. w16:-1.25 |Ans:0.5 w4:blue f1:-0 |a:0.5 w22
1 0 |yns 1
1 'tag1 | x:2 w31 the_man | :3e2 7
1t2|Ans Größe:1E-3 w12 123456 :-1.25 |b  |xns:0.5 word:0.1234567 word:-1.25
1 0.5 | Größe w8:0 w40:3e2 7:0.1234567
-1 |c:0.5 a.b:-1.25
1t2|y_feat  |c 7:0 w34 w23:3e2 w30:red | a.b 7:x:y
-1 'tag1 |z_feat:0.5 w4:2 f1:-1.25 123456 the_man:x:y |A_feat z-9 z-9:2 |x_feat x:-1.25 :7. :0.5 w31:3e2
1 0 | w0:2 1:3e2 |A a.b:x:y |b w44:blue | 
-1 |A_feat  |a1:0.5 :-0 | 0 word:ab12
-1 2 |B1:0.5  |c1 w22 w18:1E-3 0 |b_feat z-9:7. :2 w34:ab12
1 'tag1 |bns  |c1 w34:-0 Größe:1E-3 a.b |c 123456:1E-3 f1
-1 2 |b_feat  | Größe w37 :1 w28 |ans w31:-0 w20:1E-3 |xns f1 the_man w20
1 |zns :1E-3 :0.5
-1 0t2| 
1 0 |a_feat 7 | w40:red
-1 |y w8:red w30 | :0.1234567
1 2 |z:2 z-9 123456 w32:-1.25 |B_feat  | w4 42 w10 w25:0.1234567
1 2 'tag1 |x 0:7. 98765432109:x:y y:ab12 0:7. |y1 x:-1.25 w42:2
-1 'tag1 |B_feat w28:-1.25 the_man:7. | w22:blue a.b:-1.25 |Bns z-9 f1 |x1 
1 2 |z 1 |a:-1 w36:-1.25 x
1 | :1E-3 |z f1 f1:x:y |  |x_feat 
-1 |a 
1 'tag1 |c_feat :1 42 :blue
1 0 |c:-1 
-1 | 98765432109:-0 | :1 0:7. :7. |B1 w46:-1.25 :1 w38 w46:0.5
1 0.5t2|b_feat y x |zns 
-1 | :1 |a 
-1t2|A1 w19 a.b :1 7:-1.25 |A a.b:3e2 |Bns w16 |x_feat 
1t2|bns x:blue :red |x :0.1234567 :1 :x:y z-9 |z1 7:7. z-9 7 |z w34:0.1234567 42:x:y w46
-1 |b_feat:2 f1:x:y w2:0 98765432109:3e2 f1:-0 |y_feat z-9:x:y w30:-0 w26:blue a.b
-1 2t2|b Größe :1 1 :1 |x w19 word:ab12 w40 | :ab12 w32 |y:0.5 :-0 x:0.5 7
-1 0.5 |A1 :1 w4:3e2 w22:ab12 | the_man :-0 |z1 y |cns 42:blue w20:0 f1:blue w3:-0
-1 |y_feat x:2 0:0 |c1 x:0.5 w4:ab12 w45:2 w35
1 0.5 |y:2 w2:2 z-9 |a  | :2 123456:7. :-1.25 f1:x:y
1 | 98765432109 4294967295:-1.25 123456:ab12 |B:0.5 123456:3e2 :0.1234567 y:x:y w10:-0 |z1 7:0.1234567 :x:y w44:2
-1 'tag1 |b_feat word:3e2 :0
1 0.5t2|b_feat:0.5  |y1 w22:-1.25 |z1  |Bns 
-1 2 |bns  | word:3e2 w41:7. w20 |cns w4:0.1234567 w29 x:-0 w28
-1 |b1:2 w5:7. f1:-0
1 | x:x:y the_man w27:red 0:7. |B_feat 0 word |c1 :1 w26:x:y w15:-1.25
-1 0t2|x1 x
-1t2|x 42:ab12 |bns w4:ab12 word:3e2 w48 x:0.5 |a word:0.1234567 f1 |xns :1 the_man:-1.25
1 2 |z_feat:2 
-1 0t2|cns 
1 0 |y w12 |x y:7. w17:-1.25 |y1 word w44 |xns 4294967295
