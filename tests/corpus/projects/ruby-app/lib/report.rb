# Report printing, written carelessly on purpose (rubocop finds it).
require 'json'
class Report
  def initialize(inventory)
    @inventory=inventory
  end
  def to_text
    lines = Array.new
    @inventory.names.each do |n|
      lines << "#{n}"
    end
    return lines.join("\n")
  end
  def unused_helper(a, b)
    x = a + b
    a
  end
end
