'use strict';

class Cart {
  constructor() {
    this.items = [];
  }

  addItem(name, price, qty = 1) {
    if (price < 0) {
      throw new Error(`negative price for ${name}`);
    }
    this.items.push({ name, price, qty });
  }

  // BUG: ignores quantity
  total() {
    return this.items.reduce((sum, item) => sum + item.price, 0);
  }

  // BUG: discount applied as absolute instead of percentage
  totalWithDiscount(percent) {
    return this.total() - percent;
  }

  summary() {
    return {
      count: this.items.length,
      names: this.items.map((i) => i.name).sort(),
      total: this.total(),
    };
  }
}

module.exports = { Cart };
