require_relative "../lib/cart"

RSpec.describe Cart do
  subject(:cart) { described_class.new }

  it "starts empty" do
    expect(cart.count).to eq(0)
  end

  it "counts quantities" do
    cart.add("A1", 250, 2).add("B2", 100)
    expect(cart.count).to eq(3)
  end

  it "totals price times quantity" do
    cart.add("A1", 250, 2).add("B2", 100)
    expect(cart.total_cents).to eq(600)
  end

  it "lists each sku once" do
    cart.add("A1", 250).add("A1", 250)
    expect(cart.skus).to eq(["A1"])
  end

  it "rejects a zero quantity" do
    expect { cart.add("A1", 250, 0) }.to raise_error(ArgumentError)
  end

  it "applies a coupon" do
    cart.add("A1", 1000)
    expect(cart.apply_coupon("TEN")).to eq(900)
  end
end
