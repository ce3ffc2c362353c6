require "minitest/autorun"
require_relative "../lib/pricing"

class TestPricing < Minitest::Test
  def test_format
    assert_equal "12.34", Pricing.format_cents(1234)
  end

  def test_pad
    assert_equal "9.05", Pricing.format_cents(905)
  end

  def test_discount
    assert_equal 850, Pricing.discount(1000, 15)
  end
end
