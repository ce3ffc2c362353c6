require_relative "../lib/inventory"

RSpec.describe Inventory do
  subject(:inv) { described_class.new }

  before do
    inv.add("nut", 10, 5)
    inv.add("bolt", 4, 25)
  end

  it "adds up the total value" do
    expect(inv.total_cents).to eq(150)
  end

  it "lists names in order" do
    inv.add("gear", 1, 300)
    expect(inv.names).to eq(%w[bolt gear nut])
  end

  it "refuses to remove more than in stock" do
    expect { inv.remove("bolt", 9) }.to raise_error(ArgumentError)
  end

  it "rejects a zero quantity" do
    expect { inv.add("washer", 0, 1) }.to raise_error(ArgumentError, /positive/)
  end

  describe "#cheapest" do
    it "names the cheapest item" do
      expect(inv.cheapest).to eq("nut")
    end

    it "is nil when empty" do
      expect(described_class.new.cheapest).to be_nil
    end
  end
end
