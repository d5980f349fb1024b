-1 'tag1 |x_feat a.b :x:y a.b 1:-1.25
1 0t2|z word:1E-3 |Bns w17:red 42 f1:red | w42 f1:7. w27:0.1234567
1 | Größe:1E-3 w46:1E-3 |b:2 Größe:-0 w44:-0 123456 | :1E-3 x:ab12 |z1 f1:blue 42:0.1234567 Größe:-1.25 f1:-0
1 0t2|B_feat w15 |a_feat z-9:0 word:x:y |bns z-9:-0 7 word w17
1 0.5 'tag1 |Ans the_man |c :red w49 a.b | w43
1 'tag1 |x_feat  | w12:ab12 :1 a.b |x 
1t2|zns w32 :1 :7. |B:0.5 word:blue 1:-1.25
-1 'tag1 |c1 1 7 w33:-1.25 x:0.1234567 |c1 :1 w38 x:red | w27 7 w6:x:y word
-1 |z1:2  |ans w18:2 Größe:red |ans:-1 z-9:x:y 7:0 f1:0
-1 'tag1 |zns 1 | 
-1 0.5 |z1:2 x :2 w37:blue w49:-0 |x_feat w18 |y_feat w36
1 2 |b1 w32 :1E-3 w28:2 |z  | 
-1t2| :1 word:0.1234567 x |bns  |ans:0.5 w3:red w7:0.1234567 |Bns:-1 y:blue w13 word:ab12 w23:blue
1 2 'tag1 |ans 
-1 |A:2 7 123456
-1 0 | word w29:0 w2
-1 2 'tag1 |B1 :1 :1 0:ab12 |Bns :x:y w19 |Ans w41:x:y w27 |A f1 y:7. Größe:ab12
-1 'tag1 |cns w0:blue z-9
-1t2|  |x :0 4294967295 :red | 42:-1.25 98765432109
-1 2 |B :-0 :1 w34:-0 |a 1:blue a.b:7. a.b:x:y |z :1 0:0 123456:ab12
1 0.5t2|B z-9 x:red 4294967295
1 0t2|b word:1E-3 7:7. |y_feat:-1 98765432109 98765432109:red w18:blue :1E-3 |c y:0.5 42 w14 f1 |x 
1 |y w48:-1.25
1 'tag1 |x:2 y:3e2 word:red
-1 |yns:-1 
1 2 |c1 42:blue x |y1:0.5 y:ab12 y:0.5 | w32:3e2 w11 word:red 42 |a_feat:2 
-1 0.5 |a:0.5 w5:2 |c1  |B1:2 
1 |b w18:3e2 word w38:red |cns  |x  |z_feat 
-1 'tag1 |a_feat  | y:7. |y_feat:0.5 
1 | :-1.25 w41:0.1234567 word:0 | w29:red word
1t2|a:-1 z-9:ab12 the_man:-0 | z-9:x:y |A w35:3e2 w2:-0 w49:blue
-1t2|x1  | w8:1E-3 z-9:7. |  | z-9 4294967295:3e2 y
1 2t2|B x:7. 98765432109 |b:2 x Größe z-9 w25
-1 2 'tag1 |Bns:0.5 :1 w29
-1 0 'tag1 |c  |a1 4294967295 |c w33:0.1234567 7:blue 1
-1 |b1  |z1:2 the_man:red w35
1 |A w45:1E-3 :red w28 |Ans:0.5 
1 0.5 'tag1 |zns w37:7. 1:blue 42:2 |  |ans w30 | Größe:3e2
1 0.5 'tag1 |z 7 :1 |z 
1 2 |z:-1 w41 x :1
1t2|c 123456 w0
-1 |a_feat x:red |x w31:3e2 |A:2 4294967295:red |c 
-1 2 |a1:0.5 word:x:y 42:0.1234567 7:red 123456:1E-3
1 2 | :1 Größe:blue Größe |A1 the_man:x:y w42
1 0.5 'tag1 |A1:-1 7:0.5 w25:0 |a1 w40:-1.25
1 'tag1 |x1 w44 |A1 w19:1E-3 42:1E-3 a.b |c f1 w1
-1 0t2|y  |B1:0.5 Größe:1E-3 z-9:1E-3
-1 |b_feat  | z-9:0.5 4294967295:-1.25
-1 |yns w46 |A1 w41 42:2 the_man 4294967295 |A 
1 2 |x w26 |B1 word:1E-3 y:-1.25 |  | 0 w5
1 0.5 'tag1 |b w25:red 123456:blue |y 7:0.5 w25 w17:ab12 42:blue |B_feat  | a.b
-1 |  |a1 w12:-1.25
1 2 |  | Größe:ab12 w9:x:y | w16
-1 | w29 word 4294967295 word:-0 | 
1 0.5t2| w5 w17:0 |Bns:-1 4294967295:red x w0:-0
1 2 |bns f1 w31:3e2 42:ab12 the_man:-0
1t2|  |a1:0.5 Größe:3e2 |bns  | a.b:blue w27:0
1 |c1 the_man:x:y w16:x:y 1:blue |a  |A1 y | 42 4294967295:0 Größe:-0 x:0.1234567
-1 |xns  | 0 |B_feat w17:3e2 w42:red
-1t2|a w23 the_man y:3e2 word:1E-3 | :-0 |a Größe:x:y |z w34:3e2 a.b:-1.25 the_man
-1 0 |B1:0.5 word:7. |b1 the_man |  |ans w31:red
-1 |ans  |a_feat w47:2 w22:0.5 w1 123456 |z f1 1:2 Größe 123456:2
1 0.5 |B  |c1 :1 0:2 w24:7. w22 |x1:0.5 
-1 |cns w2 42:x:y a.b:2 w19:x:y |A:-1 :0 the_man:0.1234567 7:-1.25 | Größe:blue
1 0t2|Bns Größe 42:blue 98765432109:1E-3 word |bns:-1  |y1 42 |b1 the_man z-9:7.
-1 |a a.b:1E-3 |z:0.5  |z1 98765432109:x:y w29:ab12 w3:7. w46
-1 0 'tag1 |zns w31:-1.25 42:x:y
-1t2|z  |ans w23:ab12 f1:0.5 | 7
-1 0.5t2|b1 x w34:0.5
-1 'tag1 | 123456:7. w15:-1.25 |A w21 |a 
-1 |y 
-1 0t2|A_feat w33:ab12 w44:7. 1 123456:-1.25 | w34 0 w6 |B 
1 0 'tag1 |A w2 a.b w35 w11 |zns:-1 7:-0 1 w38:3e2 |xns 4294967295 x:-1.25 w41:-0 the_man:2 |z the_man word:1E-3 w29:0.1234567 w20:blue
-1 |  |b:-1  |x1 Größe 4294967295:1E-3 |z 
-1 2 | w5:0 the_man:-0 123456:7. w48:ab12 |z  |c1 w38:3e2 the_man:3e2
1 'tag1 |b w12:0 f1:3e2 Größe | f1:7. y 42
-1 'tag1 | :7. w8:0.1234567 1 |cns  |x1 :1 w42:ab12 x:-0
-1 |y  | w16 the_man:7. |b w15 y :0.5 x:blue | x:ab12 w20:-0 :-1.25 word:0.1234567
1t2| 
1 2 | the_man 4294967295:-1.25 42 w3:red |c f1:ab12 w28:ab12 w46:7.
-1 0t2|x w2
-1 |b1:0.5 w7:red w1:1E-3 w9 |y w38 a.b:0.5 |a w39:7. w2
1t2|yns w40:-1.25 4294967295 x:-1.25 |A_feat:-1  |xns f1:0.5 4294967295 a.b:blue 123456:ab12 |A x:0.5 word w38:-0
-1 'tag1 |xns 1:ab12 Größe:2 |z the_man:0 123456 :1 y
-1 0 'tag1 |x1 :1E-3 4294967295 x:3e2 42:-0 | :1 :ab12 a.b:red word | z-9
-1 |x:-1 w37:red 0 w41:0 4294967295 |B1:-1 x:2 a.b:1E-3 |b1:-1 y:2 w39 :7. |a 
1 |y:-1 :ab12 |A_feat the_man 42:0 123456:1E-3 a.b:2 | f1 |y 
-1 | 7:1E-3 :blue |cns:-1  |x1:-1  |y_feat:-1 98765432109:1E-3 w12 Größe:0.5
-1t2|ans:0.5 98765432109 |xns:2 f1:1E-3 | w42 4294967295 |bns 98765432109:2 y:7. :1
-1 |B :1 w40:0 w18:7. |B_feat :1
1 2t2|x w4:0 w47:0 |y_feat  |y_feat  |a_feat :0 123456:x:y
-1 'tag1 |z the_man |B a.b:7. 42:7. |a :-1.25 :0.1234567 :1 |a x:0 w44:x:y 123456:ab12 1
-1 0 | :1
1 | :1 :x:y
-1 |b word w21:-0 w17:7. |  |b:-1 :1 1:-1.25 w27:blue 0:red
1t2| word:-0
1 0.5 |xns:2  |z w47:2 w2:blue
1 0t2|B1 123456:0.5 98765432109:blue f1:3e2 4294967295
-1 0.5 |c :2 y:1E-3 w25:3e2 |A 
1 |c w9:0.1234567 123456 a.b:1E-3 |a w40 z-9:-0 |y1  | :1 :1
