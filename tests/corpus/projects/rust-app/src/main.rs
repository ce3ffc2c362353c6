use winnow_rust_app::{average_price, parse_item, total};

fn main() {
    let lines = ["bolt,10,5", "nut,4,3", "washer,lots,1"];
    let items: Vec<_> = lines.iter().map(|l| parse_item(l).unwrap()).collect();
    println!("total = {}", total(&items));
    println!("avg = {}", average_price(&items));
}
