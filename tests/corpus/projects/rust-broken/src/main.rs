use std::collections::HashMap;

struct Registry {
    entries: HashMap<String, u32>,
}

impl Registry {
    fn new() -> Self {
        Registry { entries: HashMap::new() }
    }

    fn register(&mut self, name: &str, id: u32) {
        self.entries.insert(name, id);
    }

    fn first_name(&self) -> &str {
        let names: Vec<String> = self.entries.keys().cloned().collect();
        &names[0]
    }
}

fn count_long(words: &[&str]) -> usize {
    let mut n = 0;
    for w in words {
        if w.len() > 4 {
            n += 1;
        }
    }
    n
}

fn main() {
    let mut reg = Registry::new();
    reg.register("alpha", 1);
    let total: u32 = count_long(&["a", "bbbbbb"]);
    let unused = 5;
    let words = vec!["x".to_string()];
    let moved = words;
    println!("{} {} {}", total, reg.first_name(), words.len());
}
