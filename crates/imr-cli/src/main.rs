fn main() { println!("{}", imr_core::version()); }
