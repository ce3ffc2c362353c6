<?php

declare(strict_types=1);

namespace Winnow\Inventory\Tests;

use PHPUnit\Framework\TestCase;
use Winnow\Inventory\Format;

final class FormatTest extends TestCase
{
    public function testWholeAmount(): void
    {
        $this->assertSame('12.00', Format::price(1200));
    }

    public function testPadsCents(): void
    {
        $this->assertSame('9.05', Format::price(905));
    }

    public function testZero(): void
    {
        $this->assertSame('0.00', Format::price(0));
    }
}
