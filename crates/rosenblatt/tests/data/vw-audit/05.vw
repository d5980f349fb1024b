1 'tag1 |Ans z-9:red w49:-0 0:blue w28:red |xns the_man:blue y:blue | the_man:0.1234567
-1t2|A  |bns w4
1 2 |  | 
1 |b 7:-1.25 |b 0:0 w47 4294967295:0 w3:-0 |bns 
1t2|  |B:0.5 123456:0.5 4294967295:0.5
1 |z1 y |A a.b w11:x:y w7:red 7:ab12
-1t2|a word :1 w3 |x1 7:1E-3 the_man 7 |A1 Größe:2 98765432109:0.5 |a1 :0.5 w36:-0 w29:blue :1
-1 | 
1 0t2|c_feat w49 the_man:ab12 42 |B_feat  | y |c1 x Größe:1E-3
1 |ans:-1  |B 4294967295 w22:blue :1 | w14:red 4294967295 w38:-1.25 w9:-1.25
1 0.5 'tag1 | z-9 w33:7. |b1 1 x:red | w32:red w31 x
1 2 | w15:blue z-9:ab12 the_man:-0 |xns word:0.1234567 123456 x word:2 |y_feat 7:2 w0:0.1234567 1:ab12 |y_feat 123456:-0 w8:0.1234567 word:0 :1
-1 0.5 'tag1 | x:-1.25 |z:0.5 w21:x:y 123456 | the_man:ab12 :-1.25 Größe
-1 0.5 'tag1 |yns w7:ab12 w22:-1.25 7:0.1234567 w16:x:y |c:-1 a.b :x:y z-9 y |B_feat :1 Größe:blue x
1 2 | the_man y:x:y |x1  |y_feat 98765432109:-1.25 the_man:ab12 :-0
1t2|a1 :1 |  |yns 
1 0.5 'tag1 |A_feat:-1 f1:-0 |B_feat  |y_feat :-1.25 z-9 123456
1 0.5 'tag1 | Größe:3e2 Größe:1E-3 w7 |A1 w35:0.1234567
-1 0 'tag1 |y the_man:red y w46:ab12
1 2 'tag1 |c w1:0.1234567 w15:ab12 w6
-1 |A x:1E-3 f1 |y_feat :0 |c 0 w42
1 |B  |Bns  |b:2 Größe :0.1234567
1 |A:0.5 w10:0.5 |z f1:ab12
-1 2 |ans w47 |yns:0.5 the_man:3e2 w38:x:y | a.b:blue |A1 z-9:-1.25
-1 0 |x Größe |B1:0.5 z-9 x:-1.25 w25:-0 z-9:red |B 42:0.1234567 |A :1 w22 w20:2
-1 'tag1 |x1 z-9:3e2 w23:-0 |x :0 98765432109 a.b:blue w9 |b1 w18 w9 w20:1E-3
-1t2|b the_man:ab12
1 |z_feat :x:y 98765432109 y z-9:-0
-1 2 |bns w36:red |c_feat 123456 123456 :7.
-1 2 |b Größe:2 | w29 0:-1.25 |y:-1 y:-0 | 7 x:7. w17:0
-1 |B1 w10:-0 Größe:0.5 w20 |B a.b y:7.
-1 2 'tag1 |a_feat z-9:red |b  |A1 1 x:-0 123456:2 a.b:blue
-1 0t2| 4294967295:1E-3 w39 |a1 w23:2 w13 w39:-1.25 |a1 1:x:y |zns x:x:y 98765432109 the_man
-1 0t2| a.b w7:0.1234567 w40:x:y |b 7:0 |x:-1 a.b y
-1 'tag1 |c  |B1 the_man:ab12 the_man:red 98765432109:0.1234567 :1
-1 0t2| w18:0.5 the_man:1E-3 w47:2 | f1 |bns a.b |a1 123456 w31:-1.25 w34
1 0.5 |x_feat:-1  |y :1 :blue w31 123456 |c 1 Größe:x:y z-9:7. x |z 98765432109:-1.25 w27
-1 'tag1 |a_feat Größe:0 :0 w2:ab12 w0:0.1234567 |bns 4294967295:-1.25 |y_feat 0:red 7:red w39:0.1234567
-1t2|bns w29:3e2 z-9:red
1 0 |B1:2 4294967295:red | 42:ab12
-1 2t2|zns word |B w2:7. w42 |c Größe :1 |B_feat:2 :red
1 |y 4294967295:ab12 w34:red w21 |cns 98765432109 98765432109
1 0 | w19:x:y w24 | 
1 |B_feat w38:0.5 w9:-0 w8:0.1234567
-1 0.5 |y1 42:7. z-9:-1.25 | word:red |A Größe w23
-1 |x w41:7. a.b:x:y |a1 
-1t2| Größe:red f1 42:x:y z-9:3e2
-1 0 |a:2  |c w11 :0 |b:0.5 7:0 the_man w2
-1 2 'tag1 |zns:2  |a1 
1 0.5 'tag1 | 123456 :ab12 word:3e2 x |cns the_man:7. Größe w32 :1 | :2
1 'tag1 |z  |z w0:7.
-1 0 |zns x :1 y:0.1234567 |Ans w15:0
1 'tag1 |z w14:1E-3 x f1
1 0 | w44 x:-1.25 | :3e2 z-9:-1.25 123456:0.5 w20 |b 0:-1.25
1 0.5 |c 
-1t2| the_man w11:0 w25:blue z-9 | w15:blue 42:0.1234567 7:red f1:red |B w33 w43:0.1234567 |z_feat 1:ab12 the_man:0.1234567
-1 0.5 |z a.b:x:y a.b:3e2 42
-1 |B1 x:x:y :0.5 w36:-0 |y :1 the_man:1E-3 a.b:0.1234567 f1:0.1234567
-1t2|  |b_feat w1 1 word | y w1 w34
-1 'tag1 | a.b:3e2 |zns:0.5 :1E-3 w20:7. 0:7. |b1:2 
1 |b1 Größe:x:y |c_feat the_man
1 0 | w38:7. 98765432109:1E-3 w30:2 |zns the_man:-1.25 98765432109 word z-9:0.1234567 |y 0:7. w34:0.5
-1 2t2|b_feat w0 |b1:2 x:0.5 4294967295:0 w12 |c1:0.5 :x:y x:red f1 |y1 :2 w29 y:0
-1 'tag1 |  |b1 w20:-1.25 | 7:1E-3 x:3e2 42
-1 2 |A_feat 98765432109:0 word w46 |B_feat  | 
1 'tag1 |z_feat  |z  |B:0.5 4294967295 |c1 w13:3e2 w24 4294967295
1 2 |b_feat w4:x:y w13:3e2 |c1 
-1 'tag1 |a_feat  |b_feat z-9 |ans 123456:1E-3 1 |x:2 
1t2| 
1 0.5 |x  |z1 4294967295:blue the_man:2 w37:ab12 Größe
1 2 'tag1 |z w31:3e2 |a1 w6:2 a.b:ab12 123456:2
1 'tag1 |z  |A 
1 0.5 |b1  |A w5:0.5 7:ab12 the_man
1 0 |z w29:2
-1 | w38 w2:red |yns 0:7. w45:-1.25 |c 0:7. :x:y 7:-0 w22:x:y |b 
1 2 |x 1:2 | word w40 0:x:y :1 |c f1:ab12 |a w41 0:x:y w45:0
1t2| w13:1E-3 w49 z-9:0.1234567 |A:0.5  |zns Größe:1E-3 the_man:-1.25 w33
-1 'tag1 |x1 w22 |x 4294967295 42:-1.25 42:0.5 w15
-1 0 |x_feat :blue Größe w22 |b :1 w15:red 42
1t2|x1  |a_feat:-1 7:blue w40:-0 x:ab12 |B 4294967295:3e2 w43:ab12 :1 123456
-1 0 'tag1 |c w30 1:0.1234567 |b1:-1 w49 Größe:0.5 w3:0 1:0 | x:-1.25 w0:3e2 w24
-1 |b the_man w30:7. |A1 x:-0 w48:x:y |yns  | :ab12 :0.5 42:0.1234567
-1 |c:2 w32:-1.25 | word a.b:-0 w14:1E-3 w25:0.1234567 |b f1:1E-3 |A 
-1 |y:0.5 :red w46 y |Bns Größe:-1.25 | w3:0 7 w25 98765432109:2
-1 'tag1 |A_feat  |b1:0.5 w0:x:y :1 f1:1E-3 |z  |x 4294967295 w5:0
1 2t2|A w23:1E-3 word:7. w11:1E-3 |zns  | z-9:0.1234567
-1 |a w6:blue a.b:7. |c y:1E-3 7 4294967295 w29 |y1 1:0.5 a.b:-0 the_man :0.1234567 |x 7:2
1 |a z-9 |B 
-1 0.5 |b1  |c:-1  |x1:2 4294967295:ab12 the_man |x:-1 
-1 | f1 98765432109:0.1234567 | z-9:red Größe:red |B_feat w35:-0 word:3e2 |b:-1 
1 2t2|B_feat the_man w43:red w16:ab12
1 | a.b:0 w37:-1.25
-1 2t2|z1:-1 0 w10 |b1 w40 :1 x:-1.25 7:blue |B_feat w34:blue w2:1E-3 |z_feat 1:0.1234567 x:1E-3 x:0.1234567 Größe:0.1234567
-1 0.5 |z_feat w20
1t2|y1 
-1 'tag1 | f1 :1 y :0.1234567 |A w8:-1.25 w44:3e2 98765432109:red 1:0.1234567
-1 2 | 4294967295:2 | w21:0.5 the_man:0.1234567 :red |x:0.5 w17 42:x:y
-1 'tag1 | 7:-0 |B word:3e2 the_man w5:0 |zns  |cns:-1 
-1 0 |bns  |B  |A_feat y:7.
-1 0.5 |c1 0:2 w0 |cns w49 w16:0 w42:0.1234567
