1 2 |b z-9:-1.25 z-9:ab12 |y1 a.b x |  |B 
-1 |B 42 w0 w47:blue w41:0.5 |yns:0.5 w0 w33:ab12 |xns w42 |zns 1:0.1234567 w49
1 |B1 1 x:2
1 0.5 | w20:-0 :1 |z_feat 1 123456
1 2 |a1 w29 7:ab12 w38:blue word | f1:0.1234567 w11 |bns :red w24 w22:0 |b 
-1 2t2|B1:-1 w3 w46
-1 |x w41:-0 |z1 x w36 the_man |  |z1:0.5 w38 123456:blue word:0 x:-1.25
1 'tag1 |zns Größe 7 z-9:0 |c z-9 |cns w4 w18:7. w32 a.b:1E-3 | 
-1 0 | f1 |y1 :x:y the_man
-1 |Ans:2 w9:ab12 | w0:0.1234567 w36:x:y w34:3e2
-1 'tag1 |Bns  |a w28:ab12
-1 2 |c word 42:ab12
-1 |A :3e2 w18 |  |z 
1 |zns Größe:3e2 7 | f1:7. Größe:x:y w41:3e2 |c1 1 98765432109
1 2 'tag1 |xns the_man:7. the_man:0.5 w26:7. | w12 w27:2 7:ab12
1 0 |x1 y:-1.25 the_man:0.1234567 w24:blue |x_feat  |z Größe a.b:1E-3 w30:2
-1t2|z  | w8:x:y
1 0.5 |xns  |a_feat w14 w9 w21 |a 0:7. w8 |ans word:7.
1 0 'tag1 |A1 7:-0 w5:-1.25 |A_feat  |x:2 
-1 0.5t2|y :2 1:red w46:ab12
-1 0.5 'tag1 |bns z-9
-1 'tag1 |  | w0:x:y w8 w24:3e2 |B word Größe:0.5 |Bns w44 w45 the_man:7. :-0
1 0 'tag1 |y w39:red
-1 | w44:-1.25 :2 |A z-9:7. w39 w5
-1 2t2|A_feat  |z:2 123456:0 123456:-0
-1 | the_man:-0 |b w27:red |x w29:blue x:red | 
1 |z_feat 123456 w44:blue z-9 |a:2 w9 f1 |A:-1 a.b 4294967295:0.5 w3:ab12 w6:0.5 |cns 98765432109:blue
-1 0.5 |x1  |x  |B1 
-1 2t2|yns :x:y :0 w12:0
1 0 | 
1 |z1 y :-1.25 the_man:3e2 | w4 z-9:-0 w34:7. a.b |A1:-1 word:blue 42 |zns :blue w42:blue
1 |c_feat w22:3e2
1 'tag1 |Ans z-9 1 w26 :1 |x_feat  |B word w21:1E-3 w23 0:1E-3
1 'tag1 |A1 y Größe:0.1234567 | 4294967295 0 |A1 :1
-1t2|y w29:red a.b:red | 123456 1:1E-3 |a :0.1234567 w25:ab12 Größe:3e2 w37:x:y |y1 x:ab12 7:ab12
1 0.5 |c z-9:1E-3 Größe:-1.25 w45:7. 7 |Ans f1:7. word:7. |y_feat:2 the_man:2 y | w0:1E-3 f1:3e2
1 |cns:2 w5:x:y |B 
1 'tag1 |a w24:ab12 w15:0.5 word:1E-3 f1:x:y |  |Ans 4294967295 w28:2 42 w8:0.1234567
1 0 'tag1 |  |c w29:2 :1
1 0 |zns y:7. 1
-1 0.5 |y1 w47
-1 'tag1 |z1 word w49:3e2 w23 |bns f1 w1 w8:0 w32:0.5
-1 |bns w31 word:-0 :1 4294967295 |yns 
-1 | w30:x:y :2 |x1 the_man:7.
-1t2| 42 w27 :0.5 w12 |bns 1 Größe | the_man:7. w32:3e2 f1
-1 0t2|A:2  | z-9:ab12 :1 123456 Größe:0.5 | w3:blue
-1 2 |  |x1 42
-1 2t2| 7 w49 |z1 0:blue Größe 0:0.5 w36
1 0 | y f1 x 0:3e2 | x:ab12 |c1 the_man:ab12 y w1 |y_feat the_man 4294967295 :red f1
-1 2 |ans w24:7. a.b |y 4294967295 |z word w14:0.5 w4:2 |yns 
-1 |a_feat w19 w49:red w30 |z:2 :1 4294967295 98765432109:x:y Größe:ab12
-1 0 'tag1 | 7 42 :7. word:ab12 |a  |a word:1E-3 word:7.
1 0 |A:2  |A_feat w8:1E-3 123456:x:y
1 0.5t2|cns :-0 |A  |x_feat 
1 |a w20:3e2 :3e2 4294967295:2 f1:red | w17:3e2
-1 |Bns z-9:0 w20:2 | word:ab12 :1 word:0.5
1 |Bns y:0.1234567 98765432109 4294967295 | w18:3e2 :2 w30:3e2 | x :red
1 |y1 4294967295 1:0 the_man:x:y |c_feat 7 0 Größe:ab12 |x w23:-1.25 w21
1t2|bns w11:blue |A1 123456:0.5 a.b:-1.25 a.b :-1.25
-1 2 'tag1 |ans 
1 'tag1 |x w9:7.
1 2 | :1 the_man :1 |z_feat 
1 |y1  |A_feat w39:blue w27 :-1.25 | a.b z-9:x:y 98765432109 word:-0 |cns 
-1 0t2|B_feat:-1 98765432109 w26:2 f1:red | :0.1234567 4294967295:x:y
1 'tag1 |B w38:1E-3 w48 :red | the_man:3e2 the_man:x:y |a y word:blue w37 |xns 
1 2 'tag1 |y_feat 
1 'tag1 | :7. 123456:7. 98765432109:0.1234567 w47:ab12 |y 123456 123456 |a w26 z-9:0.1234567
-1 2 |b:2  |ans  |y_feat w16 w49:1E-3 w49:0.1234567 | a.b:-1.25 w6 w49:x:y w47:0
1 0.5t2|A_feat :1 f1:-0 f1
1 0t2|B_feat:-1 x:-0
-1 0t2|B:0.5 a.b:-0 | w26 a.b:0.5 |a1 
1 0 |b_feat  |a_feat :x:y word w4:red :1E-3 |a:2 0:ab12
1 0.5 'tag1 |a_feat  |  |yns w39:red Größe | a.b :1
1 0.5t2|a w0:0 |A_feat :-0 a.b:0 f1:2 :-1.25 |a w28:0.1234567
1 2 |A_feat:-1 w49:ab12 the_man:0.5
1 0.5 |A w11:-0 |  |yns:2 
-1 0.5 |z 123456:x:y w20:3e2 y:-1.25 y |b1:2 w43:2 x
-1 0.5 |cns w30:0.5 Größe :0.1234567 |a_feat 
-1 |A:0.5 the_man:0.1234567
1 0.5t2|y  |A 0:0.5
-1 0.5 'tag1 |Ans :blue :1 Größe
-1 |a w44
1 2 |B_feat Größe:0.5 98765432109:ab12 |b a.b 42:-1.25 | w16:2 the_man:0.5 123456:-1.25
-1 |A1 w31:-1.25 x |a_feat w39 y |z w3:0 w19:7. w33 :0.1234567 |ans 
-1t2|b  |a_feat 
1 'tag1 |y1  |z_feat x:x:y |y1 w27 w9 |cns:0.5 
-1 2 |x 123456:0.5 98765432109:red | 
-1 0.5 | f1:-0 the_man
1t2|c_feat w44:2 f1 |A:-1  |x1 :-1.25 the_man
1 |yns  |y1 x:ab12
1 'tag1 | 1 w48 4294967295 |c1 :0.5 |b:2 z-9:red w44 :0.5
-1 'tag1 |z :-1.25 w3:red :1 z-9:7.
1 2 |B_feat:0.5  |A1 w21:red w26 w13 |y1 x
1 |A_feat w6 y:1E-3 |c  |A_feat x:0 w43:-1.25 7 |y w48
-1 0 'tag1 |b 
1 2 |a:0.5  |c 7 7:0.5 w10:0.1234567
1 'tag1 |A_feat:0.5 Größe:ab12 |z w20:-1.25 y w3:ab12 the_man:red |z x 4294967295:0.1234567 0:ab12
-1 0 'tag1 |B1 z-9 z-9:-0 x:x:y | w25:x:y w49:0.5 word :2
1 2 'tag1 | w28:x:y |B the_man 0 w25:x:y word:-0
-1 | 
