require_relative "../lib/pricing"

RSpec.describe Pricing do
  it "formats cents" do
    expect(Pricing.format_cents(1234)).to eq("12.34")
  end

  it "pads single-digit cents" do
    expect(Pricing.format_cents(905)).to eq("9.05")
  end

  it "applies a discount" do
    expect(Pricing.discount(1000, 15)).to eq(850)
  end
end
