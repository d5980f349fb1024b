1 0 |b  |a w41:red f1:x:y |b 42:blue w13:x:y w14 |xns 
1 2t2|B1:2 Größe:blue the_man z-9:blue w9:1E-3
1 'tag1 |y:0.5 w3:3e2 w28 |z 1:7. a.b:3e2 |xns 0:x:y w15 w16 Größe:-1.25
-1 0 |x1 the_man |c1 f1 w32:0.1234567 w49:blue word:0.5 |a 7
-1 'tag1 |z_feat:2 y |y x w43 |z w46 w42:2 |x 
1 0.5 'tag1 |bns:-1 Größe:ab12
-1t2|c z-9 z-9:0 w23:0.5 |ans 
1 2 'tag1 |ans y:0 f1:0 |A:0.5 w20
1 |b1 
1 2t2|Ans y:x:y w36:7. |y:0.5 
-1 0.5 |cns w17:blue 1:-1.25 w28:red w2:0.1234567 |Bns a.b:0.5 w16 |A1 w26:2 | :1 w33:7. :1
1 0.5 |yns w38:red
1 0t2|y_feat w15:2 Größe:0 123456 4294967295:0 |zns:2 w23 w48:blue w36:0 |z:2 :1 Größe :0.1234567 w33:7. |a z-9 42 98765432109:x:y
-1 | 98765432109:0.1234567 0:blue w27:-0 |zns  |b1 w40 |B :x:y word f1:2
-1 0 |y_feat w15 1:1E-3 |Bns w45 w7 98765432109 y:blue
1 | 
-1t2|Bns 123456 w16:7. w2:blue |a1:-1 :1 word:0.5
1 | :3e2 f1 |A1  |a:-1 w16:blue
1 |x:2 98765432109 42:red w4 | w14:0.5
-1 2 'tag1 |B_feat w20:0.5 |Bns:0.5  | 4294967295:2 f1:red y
1 2t2|z w20:0.5 |b w49:2 w45 0:1E-3 y:0 | 
1 |x 4294967295:x:y |z1 f1:red w38:ab12 w23:0
1 'tag1 |A  |A 
1 'tag1 |z w47:0 x:2 |z_feat:0.5 :-1.25 98765432109 | y:0.1234567 w19:red w23:ab12 y:red
-1 0 |x w25 x:3e2 word:3e2 | 98765432109:-0 w36 w15 w2 |z1:0.5 y the_man:1E-3 :0.1234567 |z1 
-1 2 |x1  |a  |yns:-1 
-1 0.5t2|b w7:-0 |y_feat w16 f1:ab12 y w11:2 |B_feat :-0 w11:0 :2 w36:ab12
1 2 |a1 the_man w7 the_man:1E-3 :ab12 |B  |A w44:-0 Größe :blue a.b
1 'tag1 |A1:2  |yns 0:-0 z-9:1E-3 y:3e2
-1 2 | 0 | :0
-1 'tag1 |z :1 :1E-3 the_man :red |A_feat w16 w22:7. w25 the_man |z_feat  |x:-1 w29 98765432109
-1 0.5 |c1 a.b:1E-3 x 1 |x:-1 w6:1E-3 98765432109 w37:ab12 x:0 |yns w33 7:2 y:1E-3
-1 | w30 123456:0.1234567 |b:2 w14 word:1E-3 the_man | w21 |a w29 7 w38 x:ab12
1t2| w34:1E-3 x w10:1E-3 |  | 98765432109 42:0 w34:blue
-1 |x1 f1:1E-3 w32:-1.25
1 0 'tag1 |b_feat y word:0.5 |A_feat 42:blue w3 123456:x:y x:blue |B :0.1234567 w34:0
1 0t2| y:x:y |a:-1 42:0.1234567 w18 f1 w16:0 | 123456:0 w1 the_man
-1 0.5 'tag1 |x_feat f1:1E-3 |y_feat:0.5 w38 w38:0.5 a.b:red
1 0 'tag1 |z y:-1.25 w40 w39 |ans w33 y:3e2 42
-1 0.5 |z1 0:-0 w4 |y_feat:-1 w0:0.5 z-9:-0 |Bns Größe |zns w32 w37:red 123456:red
1 0.5 'tag1 |  |A_feat w37 w42:-1.25
-1 2 |z 98765432109 42 the_man:0.5 0:x:y
-1t2|z:2 x word:blue | :1 0:blue y y:3e2
1 0t2|  |a w7:-0 |b f1:0 w32:0 w14:0.1234567 w26:7. |a x:ab12 4294967295 x w8
1 | 98765432109 :x:y 123456 |B f1 123456 z-9 w48 |A a.b:blue w8
1 |a:-1  |A_feat 4294967295:3e2 |A_feat x 42 word 1 |x1 1:0 :1 0:0
1 0.5 'tag1 |c 
-1 |x1 w18:0 42 :0 |yns:-1 42:0.5 0 |a Größe:0.1234567 w36
1 0.5 |  |z:0.5  |Bns 98765432109:7. Größe
-1 |y1 w38:0 the_man :2 | a.b w0 w17:blue w0:blue |b1 98765432109 w9:ab12 x:-1.25 w30
1 0t2|c word:ab12 :2 w16:-0 42 |B1:0.5 z-9:ab12 | w13:-1.25 y x 0:2
1 0t2|bns y f1 7 Größe
1 0t2|A :1 f1:7. w4:-0 1:1E-3 |ans w38 |B 42 1
-1 0.5 |a word a.b:-0 4294967295 |yns word w49:0.1234567 x |z w8:x:y w49:-1.25
-1 0 |x w48:2 w8 |zns word x w33
1 0.5 | f1:ab12 |b Größe:-0 w4
-1 0.5 |bns:2  |A w15:red | :1 the_man:3e2
1 0.5 'tag1 | 
1 |y_feat f1:blue |b_feat  |c 
1 2 |  |y 98765432109:3e2 | y |Bns y:0.1234567 a.b:ab12 w23
-1 0 |a1 98765432109 w46 |b :ab12 w8 |yns:2  |A :7. w25:7. w13:3e2
1 0t2|a_feat w23:ab12 word:x:y x:-1.25 123456 | 42 w19:7. w41:red w14:blue |z:2 the_man |b:0.5 z-9:2
-1t2|z_feat  |b y the_man:0.5 :1 Größe:ab12 |cns  |ans the_man
-1 'tag1 |A:0.5 w28 98765432109 x:1E-3
1 'tag1 |z1 y :-1.25 |b1 w21:x:y
1 0 |y1:2  |b w41:blue 1 Größe:-0 |B w44:7. |b1 w7 f1:1E-3 the_man:0.1234567 :3e2
1 |y1:2 
1 |Ans:0.5 7:0.5 |c1 y:x:y 0 z-9:blue |yns 
1 2 |c_feat word y
1 'tag1 |a:0.5  |z w29:0.5 :red |a_feat:2 f1 w19:red |cns w32:-0
-1 0.5t2|b_feat w20:0 z-9:3e2 a.b:x:y |a_feat a.b w20 |x y:x:y word w26:7.
-1 0.5 'tag1 |z1  |B z-9:1E-3 z-9 42:0 w49:0.1234567
-1 | f1 y |z y:blue |a_feat:2 :0.5
1 |B 0 |a 0:0.5 the_man:red |c_feat w40:ab12 :0.5
-1 2 'tag1 |B word the_man x:3e2 | :1 |b :0 w34 x:0.1234567 | :1
-1 0.5 'tag1 |b y
-1t2| z-9 |y  |x1 word 7:1E-3 |zns 
-1 0.5 |ans:2 x:ab12 |y1 :1E-3 :0.1234567 word:x:y |c:2 :red y:2 |zns 42 the_man w31 the_man:-1.25
-1 0t2| 7 f1:7. the_man:2 a.b
1 2 |yns 7 42:x:y f1 7 |z 98765432109:ab12 w6:0.5 w22
1t2| w1:ab12 98765432109 w9:x:y w46:1E-3
1 0t2|yns w47:0.5 |x w0:0.1234567 | 1 Größe:2 w21 |bns w48
-1 0 |  |Bns:-1 :1 |y1:0.5 w42 the_man
-1 |A1 a.b:-1.25 |z w25:2 w21:3e2
1 2 |c1 z-9 z-9:7. w31 w5:blue |A :blue |a1 42:0
-1 | w6 w13 Größe |z1 w40:-1.25 w40:3e2 Größe:7. |z_feat:-1 :3e2 w32:1E-3
1 0 | w48 w3 4294967295:7. |b  |xns w49:2 w49
-1 'tag1 |B w31 |A_feat 
1 0.5t2| word
-1 0.5 |  | a.b:red |B the_man:0.5 y w45:3e2 |y1 
1 |c:-1 w24:1E-3 |z1 z-9:1E-3
-1 |  | 98765432109:7. |c1 42:0.1234567 word:1E-3 the_man:3e2 |c :0.1234567 0 a.b
1 0 |x  |b1 z-9:2 123456:7. 42 w16:x:y
1 'tag1 |b w45 7 0 |A  |a_feat a.b:x:y y w38
-1 'tag1 |x  |y1 f1:-0 w28:ab12 |a  |B_feat:-1 w2:ab12
-1t2|xns :1 word:0
1 |A Größe w23:0.1234567 | z-9:0.1234567 |b x:-0 :1 Größe:-1.25
-1 |c 
-1 0t2|z  |y y:1E-3 |x1 w49 x
-1 2t2|y:-1  |z_feat a.b :ab12 0:-1.25 w39 |y_feat :1 a.b:0 word:1E-3 w44:1E-3 |B 4294967295:0.5
