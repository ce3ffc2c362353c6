<?php

declare(strict_types=1);

namespace Winnow\Inventory;

final class Cart
{
    /** @var array<string, array{price: int, qty: int}> */
    private array $lines = [];

    public function add(string $sku, int $priceCents, int $qty = 1): self
    {
        if ($qty < 0) {
            throw new \InvalidArgumentException("qty must be positive");
        }
        $this->lines[$sku] = ['price' => $priceCents, 'qty' => $qty];
        return $this;
    }

    public function count(): int
    {
        return array_sum(array_column($this->lines, 'qty'));
    }

    public function totalCents(): int
    {
        // BUG: ignores the quantity
        return array_sum(array_column($this->lines, 'price'));
    }

    /** @return list<string> */
    public function skus(): array
    {
        return array_keys($this->lines);
    }

    public function applyCoupon(string $code): int
    {
        $rates = ['TEN' => 10];
        // BUG: unknown codes are not checked
        return intdiv($this->totalCents() * (100 - $rates[$code]), 100);
    }
}
