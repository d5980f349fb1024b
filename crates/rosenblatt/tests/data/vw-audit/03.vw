1 |Ans:2 w10:7. Größe:0.5 word:ab12 |  | :1 w19:0.5 :2 |b:0.5 98765432109 1:x:y the_man
1 |zns 123456:-1.25 y:red w34 |z_feat w25 Größe:x:y
1t2|c  |B w7:7. Größe:-1.25 word:3e2
1 |b 7:red w26:ab12 | w15:3e2 word 1:3e2 word:3e2
-1 0.5 |a_feat  |c_feat Größe f1:x:y
1 0.5t2|b w11:0.1234567 |z:-1 :1 w46:red w32:x:y |ans :1 w25:blue
1 |cns y:x:y
1 0 'tag1 |z_feat z-9 w38 x:3e2 w48:-0
-1t2|z z-9:3e2 w47 |Ans Größe a.b |x1 w3:x:y w14:7.
1 0 |y1 w48:7. f1 |A1 z-9:-0 f1 w41:red 4294967295 |x_feat  |x1:-1 1 :x:y w28
1 'tag1 | w6:-0 :0 |b:2 w41:-1.25 w2:ab12
-1 |x1 w8:0 a.b w34:0.5 w41:2 |A:-1 w38
1 |zns w4 w1 Größe
-1 2 |b_feat y |A1 the_man:ab12 the_man :3e2 w15:-0
-1 0t2|a1 the_man:0 |y:2 w32 a.b 4294967295:-0 |z_feat z-9 w33 w31:ab12
-1 |z_feat:0.5 
-1 0t2|B:-1  |b z-9:blue w3 x:7. :1 |y 123456:0.5 |y 123456 w17:x:y y 7:ab12
1 2 'tag1 |xns:0.5 w19:-1.25 |bns  |x w21:2 word:-1.25 w11:0.1234567 |a 
-1 |A:0.5 x | x the_man:3e2 the_man a.b | z-9 :0.5 |cns:0.5 a.b:0.5 f1:7.
-1 0 | a.b w11:7. 7:0.1234567 |z a.b:0 |x w44 w7:x:y a.b:x:y 0
-1 0 |B the_man the_man:ab12 x:3e2 7
-1 0.5 |c1 :red z-9:-0 the_man:0.1234567
-1t2|b 98765432109 | 
1 0 |A w48:2 w42 w18:-1.25 y:0 | w8 |x_feat :1E-3 y:blue 7 w41
-1 'tag1 |y the_man:blue word w48
1t2|Ans word 7:7. :7. w23:0.5 |a_feat 123456 w19:x:y :1
1t2|A_feat 
1 0 |ans:-1 w36
-1 0.5 | w35:0.5
-1t2|bns Größe:0.1234567 |Bns:0.5 w23 :0.5 98765432109:0.5 w48
-1t2| w20 z-9:0 42:3e2
1 0.5t2| 123456:0.1234567 w1
-1 2 |a  | 98765432109 z-9:3e2 42:-0
-1 'tag1 |c_feat 98765432109 42 :x:y |Bns w34:0 |a:-1 w48:1E-3 98765432109:x:y w38:0.5
-1 2 |yns w22:red 7:ab12 |b w4 0:-1.25 the_man:0.5 4294967295:red
-1 0 |x_feat :x:y y:red |y w35:x:y |A y |zns :3e2 x:-0 word:1E-3
1 2 |A  |b_feat  |c_feat f1:0.1234567 42 w15:-1.25 w10:2
1 'tag1 |B 1 1:x:y w48:-1.25 w24:-1.25
-1 2 |x_feat  |  |y1 x |x1 
-1 2 'tag1 |b1:0.5 Größe:-1.25
-1 'tag1 |x1 w33:0.5 |a 1:1E-3 |a1 Größe:7.
1 2 |zns z-9 :-1.25 |zns:0.5 
1 0 |c w3:-1.25
-1 0 'tag1 |y1 7:blue the_man:x:y 0:0.1234567 7 |A_feat x w1:x:y |x the_man w39:ab12
1 |A_feat:-1  | 1 :1 :1 |z1:2 w25 y:ab12 w34:x:y :1 |x1 f1 w44:-1.25
-1 2 |z x:0.5 |z the_man:0.5 x |c1 Größe word:red w12 :1 |y y:7. 4294967295 w3
1 0 'tag1 |b f1 123456:x:y |y1:0.5 
1 'tag1 | 0 |a_feat:0.5 y:7. Größe :-0 z-9:7. |A_feat:2 w49:0.1234567 x:0.1234567 w33 w49:ab12
-1 0.5 'tag1 |a z-9 w48 |  |y  |A_feat 4294967295:0.5 z-9:0
1 0 | w42:-1.25 |z1:-1 :7. |b1  |b_feat:2 
-1 | y w39 :3e2 :1 |c_feat w47:-0 f1:ab12 |  |z:-1 a.b Größe:ab12 y
-1 |cns w17:ab12 w9:ab12 w14 | w4:7. 1 w24:0 |b w16:0 w17:-0 the_man w35:1E-3 |xns:-1 word:0 42:ab12
1 |Bns:-1 z-9:ab12 w2 42
-1 |b_feat w14:x:y |zns w44:-0 :1 |a1:0.5 w21:0
-1 'tag1 |x  |b x:0.1234567 1 a.b:0.5 98765432109
1 0.5 | :1 |A Größe:blue z-9 123456 w43
1 |  |B_feat:-1 0 |y1 :1 w7
-1 |c_feat 123456 :1 x:7. |a1:-1 z-9:ab12 f1:-1.25 | 42:-1.25 the_man:-1.25 :1E-3 f1:0.1234567
-1 |c_feat z-9:-0 w5:red |a:-1 w14:0 w2 |z_feat f1:ab12 w7:red |Bns w6:0 w49:red
-1t2| f1:1E-3 z-9 4294967295 |Bns:-1 :2 0:0.1234567 | 1:-1.25 |A z-9:x:y :1 98765432109
1 0 'tag1 |B w0:0 the_man:7. :-1.25
-1 |y1:0.5 x:1E-3 123456:3e2
1 2t2| 4294967295 z-9:1E-3 w39:2 | f1:2 | 
1 0.5t2|A  |A1 1:3e2 w45:red |y_feat w4 a.b w37:0 w20:2
1 2 |A1 w26 y :7.
1t2|x1:0.5 y 123456
1 |b 
-1 2 'tag1 |B1 w20 word:0.5
-1 0.5 |a:2 w49
-1 0.5 'tag1 |y1:2  | w26:3e2 w29:1E-3 Größe:2 Größe:3e2 |A1 
1 'tag1 |bns :1 w46:ab12
1 'tag1 | w31:0.5 z-9 w9:0 |y w35 word:0.5 |  | w36
1 2 |A 0:0 z-9:1E-3 | 
-1 2 'tag1 |  |  |a a.b w6:-1.25 | 
1 |y w48:ab12 w0:0.1234567 the_man:0 |  | Größe:1E-3 z-9:-1.25 w45:0 |z_feat y w34:0.5 w30 word
1 0.5 |b_feat 42:-0 w14 f1 |x1:2 f1
1 0t2|c:0.5 42
-1 | w15:1E-3 y |b w28:x:y
-1 2 'tag1 | w9:0 |a_feat w17:x:y
1 |x1 f1:-0 98765432109:x:y word
1t2|A w41 | :1 |x Größe:0 x:0.1234567
1 0t2|y1 x 7:x:y 98765432109 w11:2 |z 
1 0.5 |b w37:-1.25 123456 1:0.5 w16 |b  |xns :-0 the_man:1E-3 y:0.5 w6 |Ans w35:1E-3 w18:blue word:0
-1 2 |y_feat 123456 w3 4294967295:blue 4294967295 |c 7:2 w35:ab12 f1:ab12 f1:ab12 |A_feat:0.5 word:-0 7:-1.25 | 
1 0 |y w20:2 w41 w16:0.1234567 |B 
-1 |y_feat 7:x:y |xns  |Bns w4:0.1234567 |x1 :1 word x
1 0.5 |x  |c Größe:x:y f1:7. w33
-1 'tag1 |a1 4294967295 98765432109:0.5
-1t2|cns  |A y:0.5 :1 a.b :0 |A1:0.5 
-1 0.5 |zns w40:2 w15:0.1234567
-1 2 |A w39:0.5 |ans y a.b:1E-3 :red w30:x:y |y z-9:red :x:y a.b 98765432109
-1 2t2|A w32:3e2 w47 |x1:-1 w46:0.5 0 |c :0.5 word:0.5 |x 42:0 w13 w7:2 7:7.
1 'tag1 |x_feat z-9 word:3e2 |cns:-1 w49 f1 42:x:y 123456
1 |c 1 | f1:-1.25 w18 a.b:-0 |B:0.5 w8 w8:blue
-1 0.5t2|x1 y:1E-3 |x_feat:-1 w14
1 2 |y1 f1:-1.25 7 1 |z1:2 word:1E-3 w46:blue w8 |a 42
-1 0.5 |zns:2 4294967295:0.1234567 |B_feat y w16 :1 a.b:0 |yns  |b_feat 
-1 2 |  | 
1 |c1:-1 Größe:red |A1  |B w37 |b w17:0.5
1 2 'tag1 |b:-1 w2:ab12 :1 w2
