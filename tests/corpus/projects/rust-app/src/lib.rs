//! Small crate with deliberate bugs for the Winnow corpus.

use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub name: String,
    pub quantity: u32,
    pub price_cents: u64,
}

pub fn parse_item(line: &str) -> Result<Item, String> {
    let parts: Vec<&str> = line.split(',').collect();
    if parts.len() != 3 {
        return Err(format!("expected 3 fields, got {}", parts.len()));
    }
    let quantity = parts[1].trim().parse::<u32>().map_err(|e| e.to_string())?;
    let price_cents = parts[2].trim().parse::<u64>().map_err(|e| e.to_string())?;
    Ok(Item { name: parts[0].trim().to_string(), quantity, price_cents })
}

pub fn total(items: &[Item]) -> u64 {
    let mut sum = 0;
    for i in 0..items.len() {
        sum = sum + items[i].price_cents * items[i].quantity as u64;
    }
    sum
}

/// BUG: averages with integer division and panics on empty input.
pub fn average_price(items: &[Item]) -> u64 {
    let sum: u64 = items.iter().map(|i| i.price_cents).sum();
    sum / items.len() as u64
}

pub fn by_name(items: &[Item]) -> HashMap<String, Item> {
    let mut map = HashMap::new();
    for item in items.iter() {
        map.insert(item.name.clone(), item.clone());
    }
    map
}

pub fn label(item: &Item) -> String {
    if item.quantity == 0 {
        return format!("{} (out of stock)", item.name);
    } else {
        return format!("{} x{}", item.name, item.quantity);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Item> {
        vec![
            Item { name: "bolt".into(), quantity: 10, price_cents: 5 },
            Item { name: "nut".into(), quantity: 4, price_cents: 3 },
        ]
    }

    #[test]
    fn parses_valid_line() {
        assert_eq!(
            parse_item("bolt, 10, 5").unwrap(),
            Item { name: "bolt".into(), quantity: 10, price_cents: 5 }
        );
    }

    #[test]
    fn rejects_short_line() {
        assert!(parse_item("bolt,10").is_err());
    }

    #[test]
    fn totals_items() {
        assert_eq!(total(&sample()), 62);
    }

    #[test]
    fn average_of_empty_is_zero() {
        assert_eq!(average_price(&[]), 0);
    }

    #[test]
    fn labels_out_of_stock() {
        let item = Item { name: "gear".into(), quantity: 0, price_cents: 1 };
        assert_eq!(label(&item), "gear (sold out)");
    }

    #[test]
    fn parse_error_message() {
        let err = parse_item("bolt,ten,5").unwrap_err();
        assert!(err.contains("invalid digit"), "unexpected error: {err}");
    }
}
