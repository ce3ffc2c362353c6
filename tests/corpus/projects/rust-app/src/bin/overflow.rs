fn checked_index(values: &[i32], idx: usize) -> i32 {
    values[idx]
}

fn main() {
    let values = vec![1, 2, 3];
    let idx = values.len() + std::env::args().count();
    println!("value: {}", checked_index(&values, idx));
}
