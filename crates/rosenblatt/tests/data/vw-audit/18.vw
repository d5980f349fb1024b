1t2|bns w35:1E-3 :-0 y Größe |y1 word:ab12 4294967295:-0 |zns :1 0:red
1 0.5 |B w36 4294967295:0 |  |y_feat:0.5 
-1 'tag1 | 4294967295:x:y w34:2 word:7. |yns the_man 42:3e2 |z1 word:7. x w48:1E-3 z-9
-1 0.5 'tag1 |a_feat:0.5 w17 Größe |A w19:0
1t2|c1 w2:3e2 Größe:1E-3 a.b:blue w32:blue
-1 0.5 |A:-1 :1 y:2 42 |A1 w17 |b:-1 w36:-1.25 Größe z-9:x:y :ab12
-1 0 |b f1:7. x |b_feat w2:blue w21:1E-3 |bns:0.5 w33:1E-3 word w8:7. |y x w16 w11:7.
-1 0.5 | :2 |  |yns f1:0.1234567 42:3e2 123456:x:y w49 |zns w49 w24 word the_man:x:y
1 0.5 'tag1 |b1 f1:-0 |c 4294967295:red w6:ab12 |b_feat Größe:-0 | the_man:3e2 4294967295:blue :ab12 Größe:x:y
1 0.5 | 
1t2|x1 98765432109:7. 1 |a word f1:red 1:-0
1 |c1 98765432109:ab12 |xns 98765432109 w9:0.5 |z y :red
-1 2 |B  |xns w36 0:blue x |B_feat w32
1 'tag1 |b x:-0 4294967295:0.5 y:red |Bns w49:1E-3 7:1E-3 |c z-9:ab12 a.b:7. :1E-3 w13:ab12
-1 2 'tag1 |cns:0.5 Größe w35:x:y 0:0 |cns:-1 w22:0 7:1E-3 f1
1 2t2|a_feat a.b x
1 0 |c z-9:ab12 |b_feat:0.5 w48:0 w31:2 word w32:-1.25 |Ans w27:-1.25 1:red 42:x:y f1:0.5
-1t2|B_feat word w1:blue w2 :1
1 0.5t2| Größe 98765432109 |Ans w49:1E-3 f1:0.5 w35:blue 42 |B_feat w38 z-9 w42:ab12 f1:0.5 |cns 4294967295:blue w10:-1.25
1 |xns:-1 the_man:2 word:ab12 123456:7. |x w22 :x:y z-9
1 0.5 | w27:x:y :x:y x:7. | w8:ab12
-1t2|Bns  |A f1:-0 w20:-1.25 |z1 x w1:ab12
-1 2 'tag1 |yns:-1 
-1 0.5 |z :ab12 the_man:7. z-9 a.b:3e2
1 2 |y:-1 Größe:0 w40 x:0 4294967295:2
-1 |A1 :x:y y:0 | w2:red 0:blue x:0
1 |a_feat w4:-1.25 |b a.b:x:y w29:3e2 98765432109 123456:red
1 0.5 |B1 x the_man:-0
1 'tag1 |x  |A:-1 
-1 'tag1 |  |A_feat w0 w4:red :x:y 7 |b1  | 
-1 |cns:-1 w43 Größe:blue :blue | 0:x:y
1t2|c_feat:0.5 w47:2 123456:1E-3 |c1 w38 :0.1234567 word w10:red |B_feat :2 |a:2 w23 98765432109 x
1 0.5t2|c_feat  |  |a w37:3e2 w48 Größe:red Größe |zns:0.5 f1 0:red
-1 2 'tag1 | Größe:7. | w5 f1 w39 |b:0.5 w31 |a w24:0.1234567 w19:x:y
1 'tag1 |zns the_man Größe 98765432109:blue w39:-1.25 |y w30:1E-3 |cns w40:ab12 123456 w34:3e2 |b the_man:3e2
-1t2|z:-1 f1 w3:2 98765432109:x:y |y1 word:0.1234567 w0:7. :0.5 |c w40:1E-3 z-9:x:y |B1 x Größe
-1t2|A1 w4:2 z-9:ab12 42
1t2|b1 w45 98765432109:red 0:0.1234567 |A_feat 
1 |Ans 123456:x:y | w18:ab12 123456 w27:blue 0:3e2 |A f1:-0 z-9:0.5 y:3e2 w40 |A1 w43:-0 1:2 w35:0.5
-1 0 'tag1 |a_feat w41 | 98765432109:0.5 w48:x:y w35:3e2 |b y w5:3e2 w18:0.1234567 |c_feat:2 
-1t2|x_feat 123456:0.5 z-9:2
-1 2 |z the_man:7. w40 a.b:7. Größe:x:y |y w35:2 |Ans 
1 2t2|z1  |Ans :1E-3 Größe:2 0 :-0
1 'tag1 |a_feat 4294967295:red 42 f1 w28 |bns  | x Größe:-0 z-9:-0
1 0.5 |  | y:0 w12 w12:7. | 42 a.b:2 w11
1 |b:2 the_man:2 |z y:x:y f1:2 w47 :1
-1 0.5 'tag1 | w44:2 1:0.5 |x_feat :x:y |A 
1t2|b1 f1 98765432109:2
-1 0 'tag1 |a_feat the_man:-1.25 4294967295:red |B1 the_man:ab12
-1 'tag1 |a_feat :1 x w37:7.
1 |yns  |b_feat 
-1 |  |c f1:x:y f1:ab12 w23:0
1 0.5t2|y1  |a_feat w3 w12 y f1:red |c  |a 1 0 w47 42
-1 | 
-1t2| f1 0 x:1E-3 |y_feat:2  |a_feat 1 z-9:blue word:red
-1 0 |y:2 a.b |a :-1.25 word z-9:2 |B :red 0:-1.25 :0.5 w11
-1 0.5 |B_feat :3e2 |Ans word:3e2 the_man:ab12 :ab12
1 2 |B f1:0
-1 |xns :0.5 w45:blue w23 |B w21:7. :3e2 word y |A1  |y_feat 
-1 0.5 | 42:-0 w16 |A1 z-9:0.1234567 f1:7. |b_feat w48:red 42 98765432109 |Ans:-1 x
-1 |b_feat:2 w44:1E-3 w47:x:y :0.5 w36
1 0 |c:0.5 4294967295 the_man:0.5 w16:-0
-1 |y1:2  | 
1 0 |b 
-1 0 |A1 w42:red
-1 'tag1 |x1 1 :1 |zns :3e2 42 :2 x
-1 'tag1 |x1:2  |x1:2 :3e2 4294967295:0.5 w23:3e2 98765432109:0.5 | x:7. 0:0.1234567 |c a.b
-1 |c w30:blue z-9:7. w43:0.5 word:1E-3 | w15 w6:red |  |a1 
1 0 |c_feat:0.5 w41:0.1234567 w5:2 7:0 | f1:1E-3 7 w20:2 |x_feat  |B_feat w20 1:1E-3 the_man
1 0 |x_feat Größe:x:y word:-1.25 y:0.5 w24 |a_feat w29:3e2 w0:0 z-9
1 |b1 w27 :1 |z_feat :1 :0.5 4294967295 :1 |cns:0.5  |a1 x:1E-3
1t2| :-0 z-9:0.5 Größe:0 |ans 4294967295 w15:3e2 z-9:1E-3 Größe
1 2 'tag1 | z-9:2 42 7 w33
1 2 'tag1 |B w28:0.5 x |x the_man:ab12 a.b | w23 w4:0.5 w23:0 |z1 :1 w24:0.5 w37 123456:2
1 0 |yns:2  |c Größe w11 w37:0 the_man:red
-1 0t2| w9:ab12 Größe | w24:2 w1 f1:3e2 a.b:red |a word:-0 z-9:7. w21:7. | w29:-0 w21:0.5
1 |b 1:1E-3 w38:ab12 :red w4:-0 | the_man
1 0.5t2|b1 4294967295:ab12
1 2t2|z_feat:0.5 :-0 |c1 42:7. word:3e2 |c:2  |cns:-1 4294967295
1 0.5 |B w10 |A_feat:-1 w21:red 98765432109:blue a.b:-1.25 w0:red | 4294967295:2 z-9:0.5 7:-1.25
-1 0 | y |  |xns:-1 w31 |B_feat y w49
-1 0 'tag1 |y1  |y1:-1 w19:red :1 w37:1E-3 | :1
1t2|B:2 Größe:-0 :-1.25 w26:blue :-1.25 |a_feat:0.5  |x_feat:0.5 Größe:red :2 :blue 123456:ab12 | 
-1 | w26:3e2 :1 |z1:-1 a.b x:red z-9 the_man |A 42:red 4294967295:1E-3 x
-1 'tag1 |A1 w33:0.1234567 |B:0.5  |B_feat x 1 w17:1E-3 |a1 
-1 0 'tag1 |yns f1:x:y w23:-0
1 0t2|a_feat 
1 |b1:-1  |x the_man z-9:x:y 7
1 0 'tag1 |B_feat  |  |y :1 |y1 the_man:7. 1:-1.25 7 7:0.5
1 0 |y:0.5 :0.5 the_man :blue |c_feat w16
-1 |yns y w0:ab12 y:-0 |c  |z  |cns the_man Größe:x:y w2:1E-3 7:-0
-1 0 |y the_man 1 w31:blue w32:x:y |c1  | Größe w15:7. w11 w17 |A1 1 42 w19
1 |b w35:x:y a.b f1 w22:2 |y_feat 42:ab12 y:blue 123456:2 :0.5 |x Größe:0 :1 z-9
-1 | y:blue
1 |  |c w17 |a:-1  |A w28:red
-1 'tag1 |z1:2 :0.5 | w16:2 w28:-0 z-9
-1 | 4294967295:red
-1 0 |x 42 w6:0.1234567 |b1  |c_feat Größe:1E-3 word |c 
-1 0.5 | word w38
1 |a1 f1:blue x:-1.25 98765432109 |a:0.5 :-1.25 z-9:blue word:x:y f1:0.1234567
