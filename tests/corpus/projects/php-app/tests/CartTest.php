<?php

declare(strict_types=1);

namespace Winnow\Inventory\Tests;

use PHPUnit\Framework\TestCase;
use Winnow\Inventory\Cart;

final class CartTest extends TestCase
{
    public function testStartsEmpty(): void
    {
        $this->assertSame(0, (new Cart())->count());
    }

    public function testCountsQuantities(): void
    {
        $cart = (new Cart())->add('A1', 250, 2)->add('B2', 100);
        $this->assertSame(3, $cart->count());
    }

    public function testTotalsPriceTimesQuantity(): void
    {
        $cart = (new Cart())->add('A1', 250, 2)->add('B2', 100);
        $this->assertSame(600, $cart->totalCents());
    }

    public function testRejectsZeroQuantity(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        (new Cart())->add('A1', 250, 0);
    }

    public function testListsSkus(): void
    {
        $cart = (new Cart())->add('A1', 250)->add('B2', 100);
        $this->assertSame(['B2', 'A1'], $cart->skus());
    }

    public function testUnknownCoupon(): void
    {
        $cart = (new Cart())->add('A1', 1000);
        $this->assertSame(1000, $cart->applyCoupon('NOPE'));
    }
}
