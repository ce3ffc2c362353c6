# frozen_string_literal: true

# Price helpers (these work).
module Pricing
  module_function

  def format_cents(cents)
    format('%<units>d.%<cents>02d', units: cents / 100, cents: cents % 100)
  end

  def discount(cents, percent)
    (cents * (100 - percent)) / 100
  end
end
