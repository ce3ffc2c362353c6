require "minitest/autorun"
require_relative "../lib/inventory"

class TestInventory < Minitest::Test
  def setup
    @inv = Inventory.new
    @inv.add("nut", 10, 5)
    @inv.add("bolt", 4, 25)
  end

  def test_total
    assert_equal 150, @inv.total_cents
  end

  def test_names_sorted
    @inv.add("gear", 1, 300)
    assert_equal %w[bolt gear nut], @inv.names
  end

  def test_remove_too_many
    assert_raises(ArgumentError) { @inv.remove("bolt", 9) }
  end

  def test_cheapest_empty
    assert_nil Inventory.new.cheapest
  end

  def test_zero_quantity
    assert_raises(ArgumentError) { @inv.add("washer", 0, 1) }
  end
end
