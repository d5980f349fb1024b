1 2t2|x1:2 f1:0.1234567 w2:3e2 |bns w37:ab12 1 w4:1E-3 y:-0 | word:7. w30 w47:3e2 |A 1 a.b f1 4294967295:0.1234567
-1 0 |x_feat w44:2 f1 4294967295:0
-1 'tag1 |x a.b:0.5 x :blue |B w32 w30 |A w28 z-9:red w38
-1t2|A w34:0.1234567 |bns a.b:7. |c w9 Größe w33:0.1234567 w41
-1 2 'tag1 |B_feat w45:ab12 w19 4294967295:ab12
-1 2 |Bns 0:blue word:1E-3 |b 98765432109 :1 the_man
-1t2|y_feat:-1  |z:-1  |a_feat:2 x z-9:red w7 | w14 w26:red z-9
-1 0 |x:0.5 7
-1 0.5t2|B:-1 98765432109 w7 w1:2 |a:2 f1:1E-3 :0.5 a.b | w26:ab12 Größe:1E-3 w16 |yns 
1t2| 7:3e2 y the_man | f1:7. w1:-0 |bns 42:0 |b 
-1 |b w11:0.1234567 Größe:red Größe:-0 |x1 a.b:-0 w1:x:y Größe w40:3e2
1 |c_feat  |c_feat x:-0 f1:3e2 |Bns:0.5 98765432109 f1
-1 2 |x1:0.5 0:-1.25 w13:0.5 w18:ab12 f1:x:y |yns w41:blue the_man 123456:3e2 w3 |B w17 4294967295:7. word z-9 |yns:2 the_man:3e2 0 w35:0.5
1 |yns z-9:0
-1 'tag1 |Bns 42:-0
1 | w23:red :0.5 w4:3e2 Größe
1 0t2|x:0.5 w34 4294967295:-0 y |a w38 w42 | 4294967295:2 f1:0 w23:3e2 |x_feat 4294967295 w30:-1.25 the_man 4294967295:7.
1 | 1:-0 w3 |B1 
-1 |A1 w36:0.5 42:2 Größe:0.1234567 f1
1 |a_feat w12:0 w46
1 0.5 |bns:0.5  |y :7. |cns  |ans:2 w33 w23
1 |B w7:0.1234567 w13:7.
1 |a:2 123456:-0 w41:red :1 w18 |bns:0.5 w48:7.
-1 'tag1 |y w28 |x1 :-1.25 x :1 |c w4 w8 w7:0.1234567
1 'tag1 |zns:-1 
-1 0.5 'tag1 |ans:-1 z-9:-0 0 |c1:-1 w40 w41:-1.25 f1 |c 4294967295:blue w18 w6
1 0.5t2|B_feat:-1 a.b w27:2 |y w24:3e2 y:red 98765432109:x:y |Bns  |z w3:7. f1:2 :0.5 y:0.1234567
1 0 |B w5
-1 0.5 'tag1 | word w19 |yns:2  |y:-1 word 0:-1.25 y:-0
1 2 'tag1 |B_feat w13 |A1 x 7 7:blue 123456 |a Größe:red w2
-1 'tag1 |c :1 the_man:1E-3 word |b 7:0 | word:1E-3 w40:0 w31:ab12 |a_feat f1:-0
-1 2 |z word 0 4294967295:x:y |x_feat w30 w29:3e2 1:x:y
1 'tag1 |x w19 Größe:1E-3 w42:7. x |x w0:x:y z-9:3e2 98765432109
1 |zns w35:7. w36 w28 w42:0 | w40:-0 :red Größe:1E-3
1 |y :1 w19:red z-9 w34:red |a_feat w2 98765432109:x:y
1 2 'tag1 |y_feat w33 a.b |z word:2 w41:x:y w22:3e2 | 42:7. w1:0.5 z-9 123456
1 |y1 Größe w10:2 7 |yns w45 w47:0.5
1 |B w31:0 w24:7. 1 y:3e2 |x w11 123456:1E-3 |y_feat 4294967295 7
-1 2t2|x1 w17:1E-3 Größe:blue x:red |  |c_feat:-1  | 
1 |z_feat 123456:red 123456:blue Größe:1E-3 :-0 |xns w19
1 |c  |Ans w28:blue a.b
1 0.5 |  |Bns f1:2 :red
1 0 | w19:1E-3 f1:1E-3 Größe:0 x |a1 word word:red w22:1E-3 |A w10 w17 4294967295:-0 w7:-1.25
-1t2|x_feat a.b:7. 98765432109:ab12 w33:2 y:-0 |a1 Größe:x:y w0:7. 98765432109 w44:1E-3 | :1
1 |A_feat y w26:x:y :1 a.b | the_man:0.5 7 7 |c  | word:1E-3 a.b :1 1:red
1 |yns :1 word:3e2 |b1 w7 y:0 f1:1E-3 w26:1E-3 | a.b:1E-3 w7
-1 'tag1 |b_feat w41:0.5 :1 |c the_man:0.5 y:7. w44 | Größe x:2 :ab12
1 |b:0.5 w36:3e2 w17:0.1234567 |bns 1:ab12 the_man
-1 'tag1 |yns 4294967295 x the_man:0.1234567 y:0 |b f1 |b_feat w37:0.5 the_man w43 w16
-1 2 |x1 x:red z-9:blue
1 |B the_man:-0 :1 the_man:blue :1 |bns w12:7.
-1 |A a.b:ab12 :0.1234567 |y:2 Größe:0.1234567 | w13 y:ab12 the_man
-1t2|cns  |c1 7:7.
-1 2 |z w27:0.5 1:0.5 1:7. |c1 4294967295:red w44:1E-3
1 'tag1 |c:2 
1t2|B  |  |a 4294967295 y :1 w3 |ans 
-1 2t2|Bns  |c:0.5  |x w44:x:y w19 |y 7:-0 z-9 w37:ab12
1 0t2|y  |b_feat x:blue 4294967295:blue |z z-9
1 |c_feat:2  |z_feat :1 123456:0.1234567 :1
-1 0.5 'tag1 |Ans:0.5 y:x:y a.b:0 |Ans w0:1E-3 word | f1:0.1234567 a.b:-1.25 w18:-0 x
-1 'tag1 |b w39:ab12 |A  |c1  | w39:0.5 y:7. 123456
-1 0.5 |a1 z-9:-0 |x_feat:0.5 :0.1234567 word:-0 | word:-0 w39:-0
1 0.5 |y 42:blue w18:1E-3 w22 w42:2 |b:2 :1E-3 |a_feat 
1 0t2| w23 z-9 0:-0 |y1 w33 the_man w1:7.
-1 0 |c z-9 |zns w40:3e2
-1 'tag1 |c_feat:-1 :1 | w47 w17:red w46:1E-3
1 |x1  | w12:0.5 a.b:x:y 7 w32:0
-1 |y_feat Größe |a:2 w22:7. w19:x:y w29 | :1 w9:-0 y:red | w46 x w24:blue
-1 2 'tag1 |a w7 w37:0.5 w16:-0 :2 |bns 4294967295 w21:0 a.b | a.b:0.1234567
-1 2 | w8
1 'tag1 |A:0.5 
1t2|y w31:0.1234567 | 
1 2 |  |  |x 4294967295 0:red :2 w2:0 |x1 w23:0.1234567 w28 1
1 'tag1 |z_feat:0.5 x:blue :1 1 f1 |ans f1:0 word:7. 42:0.5 w33:0
-1 0 |A_feat 42:-0 w41:3e2 |y 98765432109
1 'tag1 | w1 x x:-1.25 |b1 f1 1:-0 y w24:0.5 |b w44 7 w18:2 4294967295:2
1 'tag1 |b:-1 1:7. 123456:red 123456:0.5 w5:0 |cns:0.5  | f1:-0 123456 | 4294967295
1 'tag1 | 4294967295 f1 f1:-0 | w6:red w39:2 y:-0 | x w18:3e2 |c :ab12 7 w19:ab12 w31:-1.25
-1 0 |a w36:ab12 |  |a_feat:2 w29:7. :1 w2 w44:ab12
1t2|A1:2 z-9:red y:0 w28 |a  | w24:3e2 :1
1 |y  |c:-1 a.b:x:y |b_feat:-1 :-0 w15:0 y
1 |z w7 :0 w48:7. w29:0 |zns:-1 w25
1 0 |Ans the_man:7. |z1 Größe:ab12 y:0.1234567
-1 |z  |y_feat f1:red w18 |b_feat 
-1 0.5 |xns word y:x:y |x w12 :0.5 Größe | w45:blue word
-1 |x w18 |ans :0.1234567 the_man x:blue |a the_man | the_man x:ab12 4294967295:0.1234567 y:-1.25
-1 |b_feat Größe x x
1 2 |bns:0.5 123456:-1.25 word:0.5 42:0.1234567 |B_feat :1 0 :1 z-9 |B1 word:x:y 123456 w27:1E-3 |c w46 word f1:0.1234567
-1 0 'tag1 |A1 a.b:3e2
-1 2 | Größe:x:y w9:0 f1:-1.25 |A_feat 98765432109:7. word:blue |A w33 y:blue :1 z-9
-1t2| :0 w28:x:y Größe y:0.1234567 |a Größe:1E-3 the_man w42 a.b:-0 |c1 word:2 0:2 z-9 y:red |z_feat 
-1 |  |a1 123456:-1.25 98765432109:1E-3 a.b
1 2 |b:2 Größe f1:-0
-1 0.5 |bns:2  |b_feat 4294967295:0.5
-1t2|b z-9:0.5 w17 1:-0 | w2:red |y1 w20:7. Größe:-1.25 :1 :1 |y 
1 |Ans w16 w8:1E-3 w33:red Größe:3e2 |b:2 
1 0.5 |a_feat :0.1234567 Größe f1 |z_feat w18:3e2 4294967295 123456 z-9:-1.25
-1 |a1 w31
1 |  |c:-1 x |B_feat  | 4294967295:1E-3
1 |B1 w44 w23:red w43:0.5 |y1:0.5  |x:-1 
