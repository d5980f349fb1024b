//! Tells the tests whether the machine building them can run the AVX2+FMA
//! kernels, so that a suite it cannot run is reported as ignored, with the
//! reason, instead of passing without testing anything. Tests run where they
//! are built; the library itself detects the CPU at run time and does not
//! use this.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(host_has_avx2_fma)");
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(target_arch = "x86_64")]
    {
        let target_is_x86_64 = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "x86_64");
        if target_is_x86_64 && std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            println!("cargo::rustc-cfg=host_has_avx2_fma");
        }
    }
}
