//! Text the loader's tests convert.

/// Text whose values suit an encoding: all ones, bytes × 1/255, or reals.
pub fn text_for(values: &str, rows: usize) -> String {
    let mut s = String::new();
    for r in 0..rows {
        s.push_str(if r % 3 == 0 { "+1" } else { "-1" });
        for j in 0..(r % 7) {
            let i = 1 + j * 3 + r % 3;
            let v = match values {
                "binary" => "1".to_string(),
                "u8" => format!("{}", (1 + (r * 7 + j * 31) % 255) as f32 * (1.0f32 / 255.0)),
                _ => format!("{}", (r as f32 - 3.5) * 0.37 + j as f32),
            };
            if v != "0" {
                s.push_str(&format!(" {i}:{v}"));
            }
        }
        if r % 5 == 0 {
            s.push_str(" # with a comment");
        }
        s.push('\n');
    }
    s
}
