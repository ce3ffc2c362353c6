# A shopping cart with a few real bugs for the corpus.
class Cart
  Line = Struct.new(:sku, :price_cents, :qty)

  def initialize
    @lines = []
  end

  def add(sku, price_cents, qty = 1)
    raise ArgumentError, "qty must be positive" if qty.negative?

    @lines << Line.new(sku, price_cents, qty)
    self
  end

  def count
    @lines.sum(&:qty)
  end

  def total_cents
    # BUG: ignores the quantity
    @lines.sum(&:price_cents)
  end

  def skus
    @lines.map(&:sku).uniq
  end

  def apply_coupon(code)
    # BUG: the coupon table is never loaded
    rate = @coupons.fetch(code)
    (total_cents * (100 - rate)) / 100
  end
end
