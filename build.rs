//! Runs LALRPOP over `grammar/` and writes the generated parser into `OUT_DIR`.
fn main() {
    println!("cargo:rerun-if-changed=grammar");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(out_dir)
        .emit_rerun_directives(true)
        .process()
        .expect("LALRPOP failed to generate the parser");
}
