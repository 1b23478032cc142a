//! pentad-arena: plays Gomocup engines against each other from the command line.

fn main() {
    eprintln!("pentad-arena: not built yet");
}
