-1 'tag1 |a:0.5 f1:-0 4294967295 y:2 w46 | the_man 1:-0 w35:0.5 x:0.1234567
1 0.5 |x1 4294967295 w34:red w20:0.5 w28:1E-3 |x_feat w12:blue x:-0
1 0 |Ans w27 w6:red |c w26
-1 |cns  |z1 :x:y 98765432109 42 |b1:-1 1 w26 w25:-0
1 'tag1 |b1 :blue w22:2 |A f1:-0 4294967295:ab12 w43:-0 the_man:ab12 |A w6
1 'tag1 |B_feat 123456 4294967295:3e2 w9:-0 |z_feat w39 w30 w34:-0 Größe:7. | w48:2 w20 Größe:x:y |A:2 w2
-1 2t2|cns  |y_feat w48:ab12 a.b |z1 w36:-0
-1 0.5t2|A_feat:-1 1 z-9 |ans :3e2 |c1 w39 w39:x:y |z1 w1:0.1234567 x:0.1234567 7:blue
1 0t2| word word:2 a.b:0.1234567 w13:3e2 | w35 w37 Größe x
-1 2 |z_feat 1:ab12 :1 |c1 w29:3e2 w28:-0 7:blue w18:-1.25
1 0 |B1 w5 y:1E-3 0:-1.25 w6
1 'tag1 |ans word:blue w40:1E-3 |b1 w34:3e2 x:0 | 
1 'tag1 |A  |y 
1 'tag1 |Bns:0.5 y 123456
-1 |a_feat :1 w0 | w28:7.
1 'tag1 |c1 f1:blue a.b |y_feat word:ab12
1 'tag1 |z w28 w15:0.1234567 w41:2
1 0 'tag1 |y w9:3e2 Größe 4294967295 |xns:-1 the_man z-9 w23
-1t2|yns w47:3e2 word:-1.25 |ans w5:blue w43 :1 | w33:0.5 x Größe:0.5 |x1:0.5 x:0.1234567 98765432109 :0.1234567 0
1 0t2|c :red :red | 
-1 'tag1 |b_feat :1 0 y:x:y 42 |ans:0.5 w23:0.1234567 42:2 w32 |y1 :3e2 w29:2 w15:ab12
-1 0.5t2|c:0.5 w14 w10:1E-3 |x 
1 'tag1 |a1:-1 the_man:-1.25
-1 2 |y1 w9:blue 0:0.5 w28 Größe:blue |x_feat f1:-0 w45:0.5 |c x:1E-3 42:blue w34:0 Größe:0 |c 
-1 2 | 1:3e2 w48:-0 42:2 |z_feat :ab12 w2 4294967295:x:y
1 2 'tag1 |A  |B:2 Größe |xns f1 |zns :3e2 Größe z-9:0.5 x
1 0.5 |  |b:-1  |c1 98765432109:blue |zns :2 w4:1E-3 :1
-1 |z1 the_man
-1 0.5 |a_feat:0.5 123456:x:y f1:x:y word f1 |x:2 the_man:-1.25 w16:x:y |z w23 w7:x:y
-1t2|A1  |ans y:7.
1 |z w8 word 4294967295:2
1 'tag1 |a w36:0.1234567 the_man:-1.25 |A w20:0 w7 :blue
-1 'tag1 |Ans w48 |A1 w42:ab12 f1:blue 123456:ab12 1 |B1:-1 w23 | x:blue
1t2|B1:0.5  |a w9:-1.25 w8:-0 word:3e2 w35:3e2 | z-9 x:-1.25 |A 1:0.1234567 w0 123456:1E-3
-1 2 |b_feat the_man:-1.25 word:0.5 w35 |c:-1 the_man:-0 :1
-1 |B  |A 
-1 0 |z 123456 |b w10:0.5 word
1t2|Bns 98765432109:ab12
1 2 |Bns w3:3e2 4294967295
1t2|a  |xns the_man w36 98765432109 |Bns a.b w39:x:y w34
1 2t2|B1 f1:x:y |a1 w20:-1.25 |A 1 | 98765432109:0.1234567 w8
1 2 |A 98765432109 w30 42:x:y f1:1E-3 | f1 w44:7. w5:red 7:ab12 |x:2 z-9
-1t2|x w40 w9:3e2 | 0 123456:-0 word:-1.25 w7
1 'tag1 |z 42:blue 7 98765432109 |x_feat:2 w27:x:y f1:0.5 |y1:0.5 w20
1 2 |x x:7. a.b:0.5 0:-1.25 1:x:y | f1 w31:-0 w32 7 |xns 42 w15:2 0 42:3e2 |x1 Größe:3e2
-1 0 |y_feat :ab12 y:0.5 w34:-1.25 | 
-1 |A_feat  |cns z-9:2 | :-1.25 w35 :2 w31:0.5
-1 2 |y w39 |B  |bns w11 z-9 w6
-1 2 |A:2 x z-9
1 0t2|B1 w29:x:y
-1 0 'tag1 |  |A  |A1:2 w28 42:red :2 w36
-1 0 |zns  |A_feat  |A x :1 y |A w34
-1 'tag1 | a.b:7. a.b:3e2 |A:2 0 4294967295 a.b:ab12 word
-1 0.5 |x1 w3:-0 w31:x:y Größe :3e2 |A 7:blue w1:ab12 |a_feat:2 7:2
-1 0 'tag1 |bns:2 1 w7
1 0.5 |z_feat  |y 1
-1 2t2|x_feat:2  |y1 y:2 |c1 z-9 the_man
-1 'tag1 | a.b:3e2 w0:7.
-1 0.5 |Ans 1 w35:0.1234567
-1 'tag1 | 4294967295:ab12 w17:red | w2 123456 :1 |z1 42 w1 w0:blue
1 'tag1 | w3:3e2 Größe:0 |a 123456:ab12 the_man
1t2|c1 w46:3e2 y w40 w22 |b 
-1 2 |a 4294967295 |b 1 a.b a.b |c 98765432109:-0
-1 2t2| w29:1E-3 4294967295 w44:blue w29 |b1:0.5 word w29 | 4294967295:ab12 w22 a.b y:-0
-1 |x the_man word |z_feat f1 w38 :1 |B x:blue f1:x:y w44:0.5
1 |A1  |c word w30 |zns 
-1t2|a:2 f1:-1.25
-1 'tag1 |b_feat 1:ab12 123456:blue w21:red
-1 0.5 |a1 y |y word w31:0.1234567 f1:ab12 | y:ab12
1t2|ans 1:3e2 a.b f1:red |a w46:blue w19
1t2|a_feat w27:x:y 0:red |y_feat  |B_feat w36 0 f1 z-9
1 0.5 'tag1 |x 4294967295 w32:blue w27:-1.25 w36 |xns  | x:7. the_man:-0
1 'tag1 |y1 word:-0 w19 7
-1 0 |B1 w31:red Größe:x:y f1:-0 w7:x:y |b_feat:-1 w11:0.1234567 w17:-0 a.b:2 x | 42:red 7:x:y
-1 2t2|y_feat w40:ab12 w8 w47:ab12
1t2|c1 z-9:7. z-9:7. 123456:ab12 |zns 
-1t2|c Größe:-1.25 :1 w23 y:0.5 |b w2
1 'tag1 |y z-9:red 123456:1E-3 w12:-0 |Bns w26 word:red a.b:1E-3
-1 'tag1 |y_feat:2 7:3e2 the_man word word:-1.25
-1 0 |y w29:-0 y:red | :1 a.b f1:1E-3 |x w18
1t2|ans x:0
-1 'tag1 |bns:2 
1 'tag1 | w12 :blue |  |a1  |A w49:7. w43
-1 0 |c:2 123456:2 word 98765432109:7. |zns:0.5 w4:ab12 4294967295:0.1234567 0 w11:1E-3 |c1 w19:ab12 z-9 x:1E-3 word |B 0 w40:red 1:2
-1 2t2|a x:x:y w41:2 w40:0.5 | z-9:red w42:0 |yns x:x:y Größe:red
1t2|x_feat :blue w39:2 w36 w7 |  |b 1 7 |z_feat:0.5 
1t2|a w8:x:y 0 | :-0 f1 w5:blue w4:red |B w29:-0 7:7.
1 |z Größe
1t2|  | f1:blue 0:red w20
-1t2|b 1:1E-3 |x :1
-1 2 'tag1 |x1:-1 f1 w13 x:1E-3 4294967295 | a.b:-1.25 42:-0 w47:ab12 y |b_feat:2 42:ab12 |x1 w43:0.1234567
-1 | the_man |  | y:7. w10:x:y
1 |x1 z-9 f1 |a_feat w45:0.5 w23:0 |z y:x:y |B1 
-1 0.5 |a_feat 
1 'tag1 |b1 Größe:0.1234567 | a.b:1E-3
1 0.5t2|A the_man:0.1234567 w13 w29 |x_feat w40 |c w23 7:0 w38:1E-3 the_man |A w22 w24:red 123456:0 4294967295:7.
-1 |x1 123456 w45 |z1 w22:-0
1 0 |B  |b 123456 w25:7.
-1 0.5 | f1 1:3e2 Größe |B_feat 
-1 0.5 |xns:2 w5:0.1234567 |a_feat x word:red | f1 w12:-1.25
