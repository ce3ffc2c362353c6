use winnow_rust_app::{by_name, parse_item};

#[test]
fn by_name_indexes_items() {
    let items = vec![parse_item("a,1,1").unwrap(), parse_item("b,2,2").unwrap()];
    let map = by_name(&items);
    assert_eq!(map.len(), 2);
    assert_eq!(map["b"].quantity, 2);
}
