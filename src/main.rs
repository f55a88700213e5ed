fn main() {
    eprintln!("normurl: the command-line interface is not built yet");
    std::process::exit(2);
}
