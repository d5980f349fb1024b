1t2|bns 
1 'tag1 |B_feat:2 1:7. w46 |b1 w29:blue w48:x:y |B1 :1 the_man:2
-1 0.5 |x:0.5 4294967295 Größe:blue |c1 x:3e2 123456 w30:red 42:blue | 42
1 'tag1 |z w36:blue
1t2| f1:3e2 |  |x1 42:0
-1 |y:-1 f1:blue f1 y:2 z-9:blue
-1t2|  |b1  |ans  |c f1 z-9:3e2
1t2|xns 
1 |y 4294967295 |zns a.b:-1.25 0:0 y:-0
-1 2 | 
1 'tag1 |A1:0.5 w26:x:y 123456 7 0 |cns word 4294967295
-1 0 |ans w26 |bns w42:-0 |a w0:0.1234567 Größe 123456
1 |y :1 x | f1 |z1:0.5 f1:-0 |bns word:red f1:1E-3 7 42
-1 |z1 f1:0 :1 |Bns 123456:-0 42 |A :1 the_man y:x:y
1 0.5 'tag1 |c_feat word :1 |xns w15 7:-1.25
-1 2 |B1 :1 |z :1 x |zns y:0.1234567 |Ans:0.5 
1 'tag1 |yns :3e2
-1 |Bns  |z :1 the_man:2 |Bns:0.5 z-9
1 2 'tag1 |x1 :red the_man |a_feat  |y:0.5  | w19:-0 w5 w47 z-9:x:y
-1 |B 0 1 a.b:-1.25 |bns w20:7. w27:1E-3 1
1 2 |A Größe x:blue |  | the_man:0 w2:1E-3 |c 
-1 0 'tag1 |b1 the_man:0.1234567 :0.1234567 | w22 4294967295:0.1234567 w18:red w0
-1 'tag1 |x w41 :-0 x:ab12 |a1 w28:red |b the_man |z1 :3e2
1 2 | the_man:blue
-1t2| a.b:3e2 7
1 0 'tag1 |y:2 the_man:-1.25 42:x:y |a w19:0 a.b:x:y w19 | the_man w39 word a.b
1 0.5 |a1 4294967295:red 98765432109
1 0.5 |c_feat w46 w39:blue f1:2 |x_feat:0.5 the_man:-0 w43:ab12 98765432109 |A w24:-0
-1 'tag1 |b 42 w34 w8:-0 |x w29:0.1234567 x:red w31 | w33:ab12 word:7. 123456:3e2
-1 0t2|ans w10 |a  |b1 w16:-0 w45 x :1 |a_feat the_man
1 | w19:1E-3 42:2 w26:0.1234567 x:blue |B w5:red Größe:7. 123456:-1.25 7:ab12 |a :1 w48 x
-1 0 'tag1 |b_feat w27 w22:red 1:ab12 |y  |x 7:ab12 w10 w12:0.1234567 y:0 |A_feat Größe:red
1 'tag1 |zns:0.5  | :-1.25 y:x:y w7:red |x 
-1 2 'tag1 | 4294967295:ab12 |y1 w36:1E-3 |x 98765432109:x:y
-1 0 |x :0.5 the_man:3e2 the_man:2 the_man:-0 |zns w26:-0 |z_feat w12:3e2 word:x:y
-1 'tag1 |cns a.b:blue w21 42:0.1234567 y:red
1 |A w15:x:y w14:7. Größe:ab12 w49:0.5 |z_feat a.b:1E-3 w7:0.5 y:red | 
-1 'tag1 |A 42 w28 w12 w12:blue |z w26 w6:red w8:0.1234567 :0.5 |x 123456:x:y |a 
-1 0 | 1:x:y :1 w3 :3e2 |  |z_feat x |zns the_man 123456:ab12 w6:0 f1:0.5
-1 2 | w47:7. |z:2 a.b:red w7 w45:x:y
1t2|zns  |b a.b:3e2 w28 | z-9 123456
-1 0 'tag1 |z_feat w42 Größe:-1.25 |bns  |B:-1 1:x:y 0 w23:1E-3 |z 7:red w18:7.
1 2 'tag1 |zns w20 | w20
1 | 123456 w3:x:y |A_feat w1:0 |  | w11:1E-3 word w35
1 2 |Bns:2 w28:0.1234567 y:1E-3 |Ans:2 :1 word 98765432109:ab12 |a the_man:-1.25 7:2 w45:0.1234567 z-9:3e2
1 0 'tag1 | f1 |c1 w24 :7. :blue | :0 w43 a.b:blue
-1 'tag1 |x1 z-9:2 :-0
1t2|cns w1 the_man |z  |x_feat:2 7 w30:0.5
-1 0.5 |b z-9:blue 123456:x:y
1 0.5t2|x1 :0.1234567 w43:3e2 the_man |  |A 1 w1:-1.25
1 |a y z-9:1E-3 the_man the_man | 7:-1.25 :ab12 w41:7. a.b:1E-3
-1 0.5 |x_feat:0.5 f1 x |z1 w47 word:red |A_feat:0.5  |y w34 w44:0.5 :1 a.b:-1.25
-1 |ans z-9:-0 word |a1:-1 w33:-0
-1 |yns  | 98765432109:3e2 the_man:2
1 2 'tag1 |B_feat 1:2 w23 |y1 
-1 'tag1 |a1 z-9:1E-3 the_man:1E-3
1 | 
1 |a f1:blue
-1t2|b :1
1 2 |bns  |b 98765432109 w19:2 w0:-1.25
-1 'tag1 |cns:2 123456:-1.25 w29:red 0:red word:ab12 |B Größe:3e2 7:-0 f1:x:y 98765432109:1E-3
-1 |z_feat:0.5 word z-9:2
-1 |A1 w12:blue z-9:1E-3 the_man y:x:y |b w47:-0 w43:2 |b w10 w35 :1 |B_feat 
1 | 7:-0 42:-0 |A 
-1 |Ans  |yns w34:0 :1 w25:0.5
1 'tag1 |z:2 w46 a.b w32:3e2 | :0.5 Größe:x:y w24 w1
1 |c1  |A w18:0.1234567 word 0:-1.25
1 2 |x 123456:-1.25 Größe:1E-3 y:3e2 w29:7. |y1:-1 w4:1E-3 x:0.5 w14:1E-3 w41 |Bns a.b:-0 w45 98765432109:red |B 1:1E-3 a.b:-0 4294967295 42:3e2
1 'tag1 |a w35 Größe |  | y
1 |A1:0.5  |c:-1 
1 0.5 'tag1 | :ab12 w17 98765432109:2 |y_feat w46:0 |b1 4294967295:3e2 1:3e2 | word:red w31
1 2 |z_feat w11:blue 42 |Ans:-1  |B1 y:7. Größe:0.1234567
1 |z1:-1 the_man:0.1234567 w26:1E-3 w26 w4:0 | :7. w16:blue |B1 98765432109:3e2 w39
1 'tag1 |bns 1:red 1 w16 w38:0 | w22:ab12 Größe:2 123456:-0
-1 | 
-1t2| 1 w32 |A z-9 |A_feat x:1E-3 w4:3e2
-1 0 |a1  |a:0.5 98765432109:7. 1:ab12 w11 |A 
-1 0.5 'tag1 |ans:0.5 word:x:y w28 w47 w21:3e2 | 
1 'tag1 |a_feat:2 w40 123456:blue
-1t2|Bns w15:x:y w35:7. a.b w36:-0 |A1 w32:1E-3
-1 2t2|z w2:red :1 |c w7:2 7:3e2 0:x:y w35 |c 
-1 0.5 |xns w10:x:y y:ab12 123456 | w40:3e2 w3 |z_feat Größe 1 |y 0 w30:0 42 y
1 2 | w24:0 w6:x:y :1 0:red |x1  |z 42:-1.25 x:2 w4
-1t2|a_feat w8 :1 Größe:blue |z:2 w27 w2 w27:red :1 |b:2 Größe:red f1 98765432109
-1 | y:-1.25 :ab12 Größe |A_feat z-9:-1.25 1 w22 :1 |z1 :1 1 w21:2
1 2t2|B the_man:1E-3 |c_feat 0:2 |Bns:-1 
1 2 'tag1 |A  |A f1 98765432109:2 |cns:2 the_man:-1.25 Größe:0.1234567 |x 
-1 0.5 |z_feat 98765432109:red 98765432109 7 Größe:blue
-1 |A_feat:0.5 w49 w34 :0.5 |b w38:2 0:red x:blue |A_feat  |zns 
1 0 |x_feat 0:red 1 w14:red f1:-1.25
1 2 'tag1 |x1 x:-1.25 w29:7. :1
1 2 | z-9:2 x :-1.25 a.b:2 |B:2 w5 a.b:x:y 1:blue
-1 0 |c :3e2 y:ab12 w32:ab12 98765432109 | the_man 42 7 4294967295:0.1234567
-1 2 |y_feat:-1  |bns x:ab12 |B w39:red w42
-1 2 |b1 w45:0.1234567 a.b:0 |A :1 w25:0.5 :1 |A_feat Größe:x:y :-1.25 w20:1E-3 f1 | w18 :3e2 w15:0.1234567
1 'tag1 |zns:-1  |A1 1:7. w22
-1 0 |a_feat :-1.25 7:0.1234567 |B 
-1 'tag1 |b  | y:x:y 98765432109:x:y | w15 y:0.1234567 42:0 1:ab12
-1t2|ans  |b1 w43:1E-3 w46 the_man:3e2 word
-1 0t2|xns:-1 w5:3e2 |yns y:red 7:0.5 w26:-0 | 123456 |y:2 :7. a.b:-1.25 x:1E-3
