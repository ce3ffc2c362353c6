# A tiny stock list with deliberate bugs for the corpus.
class Inventory
  Item = Struct.new(:name, :quantity, :price_cents)

  def initialize
    @items = {}
  end

  def add(name, quantity, price_cents)
    raise ArgumentError, "quantity must be positive" if quantity <= 0

    if @items.key?(name)
      @items[name].quantity += quantity
    else
      @items[name] = Item.new(name, quantity, price_cents)
    end
  end

  def remove(name, quantity)
    item = @items.fetch(name)
    # BUG: allows going below zero
    item.quantity -= quantity
  end

  def names
    # BUG: unsorted
    @items.keys
  end

  def total_cents
    @items.values.sum { |i| i.quantity * i.price_cents }
  end

  def cheapest
    # BUG: raises on an empty inventory
    @items.values.min_by(&:price_cents).name
  end
end
