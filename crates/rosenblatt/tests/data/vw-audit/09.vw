1t2|a :3e2
1 0 |xns 42 :1 42 |B word:-0 f1 42:blue |B  |zns z-9:-1.25 Größe f1:blue w46:x:y
-1 | w19 |ans:2 1:-1.25 7 |c:2 
-1t2|x a.b:1E-3 |z:2  | a.b:0.5 w28 |y 
-1 2t2|a  |bns w9:ab12 123456:1E-3 |b1 7 123456:7. w7:-1.25 |A_feat 
1 0.5 | 98765432109 w32 7 | 123456 w44:x:y w29:2 a.b:7. |x1 w12:x:y z-9 |A1 1
-1 0 'tag1 |A w13:1E-3 word:blue :1 w37
1 'tag1 |  |y_feat word:-1.25 w28
1 2 |xns  |B:2 Größe:0.1234567 123456 f1
-1 |z_feat w20 :ab12 w44:-0 1 |b w5:ab12 w34:blue |z  |c_feat w40 z-9
1 2t2|B1 w36 w38 w15:2
-1 |yns w20:-0 a.b:7. the_man:-0 | :0.1234567 1 0:-1.25
-1 | :-1.25 z-9:0.5 w33:0.1234567 |zns:-1 98765432109:blue w49 Größe
1 'tag1 |z_feat w8:1E-3 y the_man z-9:3e2 |A z-9:-0 0:red x:blue 0 |y1 a.b:ab12 z-9 |ans the_man Größe z-9:7. a.b
-1 'tag1 |a_feat:2 a.b w21:1E-3 |c1 f1:0 |B:2 w13:0 w11:2 w20:-0 w21:3e2 |b w18 w4:ab12 :1 0:x:y
1 | w46 :1 w39 0:ab12
-1 |x_feat 7 w30:3e2 w8:3e2 w43:2 | w27:2 :0.1234567 f1 x:-1.25 |c1 f1:0 w23 Größe w38 |y_feat w11:red
1 'tag1 | :0.5 w18:0.5 1:0.1234567 |  |z w12:-1.25 w8:ab12 1:blue
1 0.5 'tag1 |B :1 :1 :1E-3 w11:-0 |y_feat f1:0 |z_feat  | :1 word
1 0.5 'tag1 |a 
-1 0 | :1 z-9
-1 |x  |b 7 Größe:-1.25 z-9:0.1234567 |xns w7 :7. |b_feat:0.5 
-1 'tag1 |b_feat:0.5 a.b 7 y:blue |z  |x1 word |c:0.5 w30:blue w48:2 Größe the_man
-1t2|B_feat 7:red 7:-1.25 Größe:ab12 the_man:blue
-1 'tag1 |y w20 |A w9:7. 123456:0.1234567 z-9 |Ans x:blue 98765432109 w20:2
1 0.5 |B_feat:-1  |y w19 |b :ab12 :2
1 0 'tag1 |yns:-1  |c_feat w39 y y
-1 0.5t2|b_feat 123456:red 98765432109 z-9:x:y |a1 w47 x:3e2 |  |B :1E-3 :1
-1 0t2|ans 42:2
1 2 | w21:0.1234567 |a1 w16:-0 x :2 w32 |B 
-1 0 |z w27:-1.25 w43 :3e2 :-0
-1 0 |z the_man :red :1 y |x z-9:2 f1:-0 w15:x:y |y  |y_feat w6:7.
-1 |x_feat z-9:-0 42 w7:0.5
-1 | 4294967295 | word:blue w48:-1.25 y:blue w45:7.
-1t2|b_feat w6 |z1 Größe:0 | w17 w21 w4:1E-3
1 0.5 | :-1.25
-1 0 'tag1 |a Größe
1 0 |xns a.b:1E-3 the_man |A1 Größe Größe |y:2 f1 |a :1 w16:1E-3 y
1 |a:-1 :1 1 | 4294967295:x:y f1:x:y |bns:2 z-9:red :3e2
1 0t2|B1 Größe:7. w29 word:red 4294967295:x:y
-1 |B :x:y w36 |x_feat w38:ab12
-1 |y w16 :-0 | z-9:blue y
-1 |A_feat w19 0 |B_feat w42 |bns w47 :3e2 w35 42:2 |z f1:2 42:0.1234567 w30:2
-1 'tag1 | word
1 0 'tag1 |c Größe:x:y x w15 word:7. |B_feat y:7. w13 w28:0.1234567 w47 |z_feat:0.5 y:x:y w15:0 w48:0 |y 123456:ab12 w25
1 2 |B_feat w28:3e2 42 :3e2 |A1:2 w38 :3e2
1 0.5t2|z 
1t2|A w42:1E-3 w10 w33:1E-3
-1 'tag1 | f1 | word 42:-1.25 w7 f1:red |yns w27 |B1 word:1E-3
1 0.5 |y1 word w35 x w14 |B_feat:0.5 z-9 |b 123456
-1 0.5 'tag1 | 0:blue |B_feat:0.5 word:blue 4294967295
-1 0.5 |a1 a.b 7:0.1234567 w9:7. |c 
-1 0.5 |  |y1 word word:0
-1 |B_feat:-1 Größe:ab12 w48:3e2 0:0.1234567
1 2 |b Größe f1:-0 w44:-1.25 w29:0.1234567 |b 123456:0.5 y:red | w11 w17 7 w24
1 |c_feat w10:ab12 f1 :2
-1 'tag1 | w19:ab12 w17 :1 |b_feat 
-1 0.5 |xns f1 Größe | :ab12 w36:3e2 word
-1t2|c y:-0 w28:blue z-9:red 0
-1 2 |x_feat:-1 7 :1 f1:blue :1
-1 'tag1 | Größe x:0 w44:-0 w39:-1.25
-1 2 | 4294967295 7 f1:0.5
-1t2|cns w14 |yns w18:-1.25 |z1:0.5 w24 7:red
-1t2|a :red word w45:0.5
1 0.5 |c w31:red |y w11:7. | w17 :blue w16 :1
1 |x1 w28:blue
1 |yns f1:7. x :1 x |cns w14 98765432109 w38:ab12 |x_feat Größe:-0 |B_feat 
-1 2t2| z-9:2 0:0.1234567
1 'tag1 | w26 w16:ab12 |B w26:0 |y1 word:x:y 98765432109:1E-3 :2 |y Größe :1E-3
-1 |B_feat :2 w43 |zns:2 :1 |B:0.5 word:1E-3 42:x:y w22:0.1234567 w45:0.1234567 |a1 42:3e2
-1 0.5 'tag1 |c f1
-1 |y the_man | :red x f1
1 2 'tag1 | y w20:0.5
1 |c1 98765432109:-0 z-9 a.b:7. 42:blue |B_feat word:blue x w9
1t2|y:0.5 
-1 0 |c_feat:0.5 word
-1 2 |yns the_man:-0 0:x:y 42:1E-3 |y_feat :0 x w33:0.1234567
1 | w39:7. w12:-1.25 w42:0.5 |y:-1 
1 |a1:2  |x_feat w27 w37:-1.25
1t2|  |y_feat w23 |b :1 w10:1E-3
-1 2 |A1  | the_man 123456
1 0.5 |cns 4294967295:-1.25 |B_feat y |Bns w13 |c 
1 2 'tag1 |ans :red f1:0 :1 word:2 |bns w17:1E-3 w15 z-9 w46:-0 |A 
1t2|c x:0 :1 :7. |c1 the_man
-1 2 |b_feat:-1 :1 0:3e2 w10 0
-1 0 'tag1 | w44:0 the_man:-0 1:-1.25 |B :1 z-9:-1.25 |y_feat w30:0.1234567 x:1E-3 the_man:ab12 y | the_man
1 0.5t2|A 1:0 98765432109 w3:1E-3 |b1:-1 :0.1234567 Größe:1E-3 w49:7. w40:3e2 | w9:-1.25 a.b w42:2 |y1 
-1 2 |y1:-1 w1:0.5 f1 98765432109 Größe |B w36 w34:x:y x a.b:red |  |ans w26:7. w44
-1 |c1:-1 7 w10
1t2|b_feat 
-1 'tag1 | 98765432109 |b:-1  |a:0.5 the_man f1 0:x:y Größe |z1 w45:blue
1 0 | :-1.25 |y 
1 'tag1 |A_feat:0.5 4294967295 x:red |x the_man:ab12 w33:0.1234567 w0 |b w43 w23:ab12 |x 
-1 |a1:0.5 w15:0.5 y:2 |x  |b w14:blue w0:blue f1:2
-1 0.5 'tag1 |b 123456:7. 1 w26 |B  |A Größe:1E-3 Größe w1:red |z_feat:0.5 w33:blue z-9:1E-3
-1 0.5t2|Ans w41:0 w24 y a.b |cns z-9:-0 |x the_man:ab12 7 |x1 7:-1.25
1 |c_feat :0.5 4294967295:ab12 w3:-0 w39:7.
-1 2 'tag1 |y_feat:-1 w27:7. 4294967295
-1 0.5 |Bns 4294967295:7. 42:x:y Größe |zns 123456 |  |y:-1 
1t2|A z-9:blue the_man:0.5 x:3e2 98765432109 |A w49:0.5 7:x:y
