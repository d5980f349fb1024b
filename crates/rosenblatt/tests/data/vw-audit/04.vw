-1t2|a:2 w14:2 |B  | 7 z-9:0.1234567
1t2|y 4294967295:0 |yns y:7. y:red | w43
-1 'tag1 |A_feat f1
1 0 'tag1 | w15:ab12 w7
1 |x1 w0 w0:0.1234567 98765432109:2 w14 |y y:ab12 w46:2 w39:3e2 0:blue |y_feat  |z:2 
1 0.5 'tag1 |bns w33 w25
1 | 
1 0t2|x:-1 word w13:blue w44:-0 7:-1.25 |A:0.5  |A_feat  |a :x:y f1:x:y w10:0
-1 0.5 |x  |x :-1.25 the_man w41:red 42:1E-3
-1 | 
-1 'tag1 |z:-1 a.b:2 a.b |b_feat y:2 w23:blue :2
-1 |c:-1 the_man w27:7. 0:-0 |c 
1 0.5t2|b the_man:1E-3 123456:1E-3 | 123456 w40:0
-1t2|A_feat :7. w21:x:y the_man w22:0
-1t2|cns w34:1E-3 y:7. the_man w38:ab12
-1 | w18 4294967295 y:-1.25 |a1 w24:-1.25 word w6
1 2 |  |A  |z1 the_man:0.1234567 42:1E-3 42 Größe
1 | w21:ab12 123456:blue word Größe
1 0 |a w39:7. :1 w48:0 123456:-0
-1 0.5 'tag1 |c_feat w41 f1:2
1 |b1 the_man:1E-3 w8:3e2 123456 |x_feat  |a_feat 
-1 'tag1 | z-9 the_man:blue
1 |B z-9:2 w26:0 |b 
1 | w0 | x x:0.1234567 |bns 1:-0 42:ab12
1 'tag1 |b1 word 4294967295:ab12 w10 w42
1 | a.b :blue w12:0.1234567 a.b:0.1234567 | x:0.1234567
-1 0.5 'tag1 |z1 z-9:blue :1 w13:0.5 |c  |a_feat w29 a.b word:0 Größe:7. |xns:2 
1 'tag1 |a w14:ab12 a.b:ab12 |c :x:y w48:3e2 |c:-1 w33:-1.25 x y:2 98765432109:-0 | w11 z-9:red
1 2 'tag1 |z 1:-0 the_man w2:0.1234567 :0 |y w33:2 w23:0.5 |c1 y |c w31 w27:0 :1E-3 w45
1t2|y1  |B_feat 
-1 2 |B_feat 
-1 'tag1 |zns w20 z-9:1E-3 w25 f1:x:y
1 |b1 z-9:7.
1 0 |xns 4294967295 |y:2  |a w12 w21:blue :x:y x:1E-3 |b word:2 z-9:red
-1t2|b1 w28:ab12 w26:3e2 y y:blue
1 'tag1 |a w48:red a.b:7. |a 7 :1 |b_feat 
1 |b  |a1 :1 w5 |A_feat 7 :0.1234567
-1 0 'tag1 |z w5:1E-3
1t2|A_feat w41:-0 w14 x |B1 w8
-1 |A1:-1 98765432109:7. |  |z_feat 4294967295:-1.25 :1 w47
1 0 | :-0 the_man:-0 :1 |y:0.5 w17:7. a.b f1 x |b x:2 w17:x:y y:0.1234567
-1 2 'tag1 |y1 w27 z-9
1 'tag1 |y_feat:2 w14:2 y:red |xns:2 w36:0 :blue 4294967295:-1.25
-1 2t2|B 1:2 |  | 
1 |a_feat:0.5 
1 0 |B_feat:-1 7
-1 0.5 |x z-9 :1 f1 |A:2 
-1 |x :1
-1 | Größe:7. the_man word w28
1 0.5 |B f1 the_man:-0 7:blue |x1 y:0.1234567 w25:ab12
1 0.5t2|  |a w31:red the_man
-1 0.5 'tag1 |A1 w36 |B:2 word:0 a.b:red Größe:2 a.b
1 2t2|x_feat w39:-1.25 f1 w31:blue | f1:ab12 the_man y:7.
1 2 |z1:-1 42 |y :1E-3 4294967295 w8 f1 |y_feat a.b 0:0.1234567 Größe
-1 0.5 |c_feat w0:blue | f1:3e2 |c  | w36 f1:ab12 w42
-1 0 |B1 w0:2 |z1 y :1E-3 a.b |zns 
-1 0 'tag1 |b1:2 :1 |x_feat w46:-1.25 Größe:0.5 w13:3e2 |B1  |x_feat 
1 |x w39:red | 
-1 0 |x:-1 w28:0.1234567 |z1 1 the_man:0 :1 |b_feat:2 a.b:7.
1 |z_feat:-1 the_man :x:y the_man:3e2 x:red |B Größe:0 :1 4294967295 |bns :-1.25 x 98765432109:-0
-1 0.5 |  |Ans 0 98765432109 w20 |c 
-1 |cns z-9:blue Größe:7.
-1 0 |A_feat w35:blue word:0 f1:1E-3 :blue
1t2|x1 
-1 |c1  | z-9 word:-1.25 w45:2 123456:0.5
-1 2 | 42:ab12 w26 :3e2 |c_feat w35 w39:x:y w8:0.1234567 7:1E-3
1t2|a1 w21 w48:-1.25
1 0t2|y the_man z-9:1E-3 :blue w39:0 |B1 123456 |Ans:-1  | 
1t2|b1 w35 w12 |c_feat :2 word:red | 123456:blue w49
-1 2 'tag1 |b_feat :0 word:ab12 w17:0.1234567 | 123456:red w40:0.5 w25
-1t2|x1 0 :-0 word |z_feat f1 w38:0.5 a.b:0.1234567 |b1:-1 z-9:0.1234567 4294967295:0.1234567 | w16:-0 x:3e2 z-9:1E-3
1 'tag1 |B  |cns the_man:0 |A1 w29:2 1:1E-3
-1 2 |Bns the_man |cns 7 w18:7. w11:ab12 y:2
-1 | w48:0.1234567 |y_feat:0.5 
1t2|y_feat:0.5 y |c 7 w15:blue 98765432109:blue |b a.b:7. z-9:2 |x_feat f1:0 Größe f1:-0 x:0.1234567
1t2| Größe:ab12 f1:0 |bns w31:blue word w6
1 0 | z-9 |B:2 1:0.5
1 2 |z:-1 z-9 0:ab12 |c w34:0.1234567 w23:0 the_man w26:1E-3 |b 123456:0 word w29 word:0.1234567 |a 
-1 0 |y_feat y |B 98765432109 98765432109 Größe x |c1 w40 |x:2 w46:7. :1 f1
-1 0.5 'tag1 |ans 1:2 x:7. |a:0.5 0:1E-3 123456:0
-1t2|A_feat w41:0 w32:2 0 f1 | w49
1 0.5 |Ans :1 the_man:7. 98765432109:-1.25
-1 0t2|x :1 w3
-1 0.5 |b_feat 4294967295 y
1 |Ans 
-1 0.5 | w4 the_man
-1 0.5 |z  | 
-1 2 | y:x:y w43:2 | 
1 0t2|A1 w48:0.1234567 4294967295:7. w21 w12:0.1234567 |a :1E-3 y:0 the_man:0.5 |a1 Größe w34:-1.25
-1 |Bns:0.5 
1 2 |z1:2 x |yns 1 f1 0:blue
1t2|b:0.5  |a1 w35 42 |B_feat Größe the_man 1 w15:0 |b f1:blue the_man:ab12 :1 word
1 'tag1 | w46:x:y word:3e2 |b_feat:0.5 42 :red w15:blue f1
1 |y1 Größe f1:2 |c_feat w24:3e2 w10:3e2 z-9:1E-3
-1 0.5 'tag1 |yns w44:-0 w25:blue :1 w20:-1.25
-1 0.5 'tag1 |z w22:ab12 x:ab12 |x w47:-1.25
1 0.5 |c1 w48:3e2 | 
-1t2| 1:x:y w32:0 |zns :red z-9:blue 123456 42:blue |xns:2 w19:3e2
-1 |bns:-1 w21:3e2 w47:0.5
-1 'tag1 |y the_man:0 w4 a.b |z_feat a.b:x:y z-9:7. word:7. the_man
