// Reads a file the caller names, relative to the app's data directory; a failure panics (unwrap).
use std::{env, fs, path::Path};

fn load_config(name: &str) -> String {
    let dir = env::var("APP_DATA_DIR").unwrap();
    fs::read_to_string(Path::new(&dir).join(name)).unwrap()
}

fn main() {
    let name = env::args().nth(1).unwrap();
    println!("{}", load_config(&name));
}
