//! Writes the prost messages and tonic clients and servers for every file under the proto
//! root. Usage: `praxis-client-codegen <proto-root> <out-dir> <file.proto>...` with `PROTOC`
//! naming the pinned protoc.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, out, files @ ..] = args.as_slice() else {
        return Err("usage: praxis-client-codegen <proto-root> <out-dir> <file.proto>...".into());
    };
    let files: Vec<PathBuf> = files.iter().map(|f| PathBuf::from(root).join(f)).collect();
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .emit_rerun_if_changed(false)
        .out_dir(out)
        .compile_protos(&files, &[PathBuf::from(root)])?;
    Ok(())
}
