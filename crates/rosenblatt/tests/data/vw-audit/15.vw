1t2|a_feat w10:-0 w28:7. w18 |x_feat  |a word:7. word:2 123456 w2 |b_feat z-9:blue
-1 0 | w26:0.1234567 f1 |A1:-1 f1 y
-1 2 'tag1 |b :1 the_man:0 x :red |bns w23:-0 |A1 a.b:2 w18 w25 7:7. |cns 
1 0t2| :1
-1 'tag1 |B  |a_feat:-1 w38:ab12 :blue :ab12 w24:ab12 |yns:0.5 w21:3e2 :1 |B1 :ab12
-1 0 'tag1 | w10:red
-1 2 | w10 word w24:1E-3 |B word :-1.25 Größe:x:y w48 | w8:0.1234567
-1 0t2|b  |B1 a.b:3e2
-1 0.5 'tag1 |x w14 42:0.5 |z1:2 98765432109
1 'tag1 | w3:0.1234567 4294967295:red w2:red word:0.5 |A w43 0 42 98765432109 |c1 Größe:2
-1 0 |z y:x:y f1:ab12 z-9:1E-3 42:red | a.b f1:x:y 98765432109:1E-3 w27 |c a.b:ab12 w35:2
1 0 'tag1 |Ans :7. |y  |zns:2 98765432109 4294967295:ab12 |c_feat w3:0.5 w48:-1.25 w40
-1 0 |c  |B_feat:0.5  |bns 
-1 |A:-1 w0:blue |a_feat  |z w3 | 
-1 'tag1 |b w7 |A1  |ans  |A_feat:0.5 a.b:-1.25 :1 :3e2
1 0t2|b:-1 w6:blue a.b |B1  |b w32:ab12 7 123456:x:y 0
-1 |cns 7:0.5 |cns:2 123456 123456:1E-3 |c w38
-1 'tag1 | 0:x:y the_man:7. |xns word:x:y :0.1234567 |A 4294967295 w24:1E-3
-1 0t2| a.b:ab12 |c1  |y1 :1 123456
-1 2 |B y:blue | z-9 f1 4294967295:ab12 z-9 | Größe:blue |ans w24 w45:-1.25 98765432109:0.5
1 0.5 'tag1 |c1:-1  |B_feat w9:0.5 x a.b:0.1234567 Größe:0.1234567 |y_feat word:ab12 |x 
-1 2t2|B_feat:-1 w12:-0 w47:1E-3 w0:blue |x 1:0.1234567 0:7. 4294967295:-0 w40 | w12 y:2 x:red w20:-0
1 0.5 |bns 1 Größe |a z-9:blue 98765432109:red
1 'tag1 |a 7 z-9 z-9 | a.b:0.1234567 0:x:y |Bns 
-1t2|A a.b w26:7. word w44:ab12 |  |bns w47:ab12 w17:blue 123456:ab12
1 0 'tag1 |x_feat w41 w29 w22:red :1 |z x:ab12 |a_feat f1 7 a.b:1E-3 42 |B1 y:1E-3 123456:2 98765432109:0.1234567
-1 2 |a1  |y z-9:-1.25 98765432109:2 Größe:0.5
1 2 'tag1 |cns w6 x:-0 |B w23:0.5 w8
1 0.5 |A:0.5 w25
1 |y a.b:0 |B:-1 w23 w47 w40:3e2 :1 |B word
-1 0.5 |x z-9:2 |A:2 f1:ab12 w0:blue |y_feat the_man w2 :1 4294967295:-1.25
-1 0 'tag1 |z 
1 0 |y_feat z-9:7. w27:-0 word | 0:3e2 98765432109:2 the_man :1
-1 2 'tag1 |a1  |c w10:2
1 | :-0 98765432109 |y1  |b1 w0 word:-1.25 42:7.
-1 'tag1 | 98765432109:red |Ans y:blue 4294967295:-1.25 :1
-1 |x word
-1 0.5 |xns Größe:7. w36:-1.25 w46 z-9:0 |y_feat  |bns Größe y:ab12 a.b |y1 y:x:y
-1 0.5t2|x 
1 'tag1 |z_feat 1 a.b:0.5 a.b:-1.25
1 0.5 |y1  |  |  |xns z-9:1E-3 w17 w33:-0
-1 2 'tag1 |A y :1 y:ab12 | w41 1
-1 2t2|z:0.5 w29 4294967295:-1.25 w47 f1:blue | 42 w26:x:y the_man | 42:x:y word:0
1t2|xns w32:x:y w18:0.1234567 |yns f1 w4:blue word w14:blue |z_feat 123456 123456:x:y :ab12 |bns:-1 :1 98765432109:ab12 1 :1
1 2 'tag1 |  |x_feat  |B 4294967295 f1 |c1 :0.1234567 w11:blue a.b:0 42
-1 |B_feat :x:y |  |Ans:-1 :3e2 4294967295:x:y 42:-0 | word x:red
-1 |c1  |a1:0.5 :ab12 1:-0 w36:2 | x w48:0
1t2|A_feat:2 y:1E-3 | 
1 |b w47:2 |Bns y :2 w34 |x1 w6
1t2|z1 7:blue :-0 the_man:red Größe |c_feat 0
1 2t2|yns w44:x:y
1 0t2|z1:0.5 
1 | word:red f1:7. |a z-9 | w45:ab12 |a_feat 1:0.1234567 the_man
-1 |y1 z-9 0:blue :1 1:0 |bns word:2
-1 |A:2 z-9:0 w0:3e2 w16:3e2 |xns 1 7:red w29:0
-1 |x:-1 Größe |bns  |  |y1:-1 0:1E-3 w25:x:y w3 4294967295:0.1234567
1 2 | w29 a.b:-0 w7:2 Größe |y_feat the_man w46:-0 w37:2 | z-9 w1:0.5
1 0 'tag1 |c_feat:0.5 word |ans :x:y | 
-1 |B 123456:1E-3 w47:red the_man
1 'tag1 | w47:red a.b f1:blue a.b:3e2 |c w44:blue w32:0.5 z-9 :-1.25 |bns w22 7:blue x:0.5 |y_feat 
-1 0t2|y 7:-0 a.b:0 w25:ab12 |y 4294967295:1E-3 :red |cns w34 123456:0 :ab12 |b1 the_man w38 w13
-1 |z w15 42:-0 y
-1 | w27:blue 4294967295:0.5 |xns 
-1 |A 
1t2|y1 w47:0.1234567
-1 0t2|x_feat 7:ab12 4294967295:1E-3 z-9 Größe:1E-3 |b:2 w12 7:-0 :1 a.b
1 'tag1 |x1:-1 Größe:ab12 Größe:0.1234567 w41:blue |z a.b w43 w35:0.5 42:0.5 |A_feat Größe y:1E-3
1 2 'tag1 |c_feat 1 7:-0 0:ab12 w25 |cns:0.5 Größe 42:3e2 | w33:1E-3 x:2 :red w11 |xns word:0.1234567 w18:7.
-1 0 | w11:1E-3 w14:blue x:blue |x  |B w36:2 123456 a.b:1E-3
1t2|B1 w7:2 123456:0 w28:red w21:x:y |c w9 98765432109 42 |B_feat w20 7:0 w32:red word
1 0.5t2|c_feat w3:2 w43 |ans f1:-1.25
-1 'tag1 | w48:red 98765432109:ab12 w31 | 7:red Größe:blue 123456:3e2 w27
1 0 | x z-9:1E-3 |x1  |y1 :x:y word the_man:-0 |c 
-1 |b1 x w31:-0 :x:y w31:7.
1 0 |z w34:x:y w7 a.b :2 |B1 w3:-0 :ab12 42 w48:1E-3 |  |B 0 7:red 0:-0 the_man
1 0.5 |c_feat :1 |b:0.5 1:0 :red
1 0 |y1 word:-1.25 |A_feat 
-1 'tag1 |a:2 w44
1 'tag1 |  |a_feat 98765432109 w41 4294967295:7. |bns:-1 4294967295:-1.25 w14:1E-3 42:red w32:2
1 |x Größe:blue |a_feat w32:2 w29:3e2 |Bns :0.1234567 w46:-1.25 a.b:2 |A1 w45:0 y
1 2 'tag1 |a 0:ab12 f1:blue |Ans:0.5 z-9:0 4294967295 Größe:0.5
-1 0 'tag1 |A  |xns:2 
-1 |x_feat Größe:x:y f1 word |B :0.5 1 | w47 |ans 98765432109:0.1234567 f1:3e2 w14:0.5
1 0.5 | w36:blue 42:blue |zns w28:3e2 |z w42:3e2 |c 
-1 0t2| w14:red 123456:0.5
-1 2t2|Bns w40:0.1234567 word w43:red w33
1 0.5 |y1 1 |x 123456 :1 |b z-9:x:y :-0 Größe 1:0.5 |ans the_man:0 :1
-1 2 |x_feat:2 z-9:0 w18 w24 w29:2 |  |a_feat 98765432109 the_man:0.1234567 98765432109:1E-3 z-9:-1.25 |ans w20:blue Größe
1 |a:-1 98765432109
1 0 'tag1 | y:0.1234567 1
-1 |ans y:-1.25 :red 4294967295:-0 |c w28 w26:2 |c :0.1234567 w30:0.5
1 0 |B1 f1:0 :1 w22:0.1234567 f1
1 0 'tag1 |Ans the_man:2 |b1  |Ans w43:-1.25 123456 x:7. w21 |b1 :1 :1
1 |b f1:red w31 w30 98765432109 |y:-1 :1E-3 123456 |c w3 7:red y:red w46:x:y |z w48:-1.25 w36 98765432109 :1
1 0 |B_feat 1 y w17:blue
-1 0 |c w17:7. 0:red |A1 0 the_man:3e2
-1 |y_feat 0 42:1E-3 98765432109
-1 2t2|a 42:-0 f1 f1 the_man:red
1 'tag1 |A1 w35 w40:0.5 z-9:ab12 f1:0.1234567
-1 2 |A_feat the_man |B word:x:y |A 123456:7. w12 w24:red
