<?php

declare(strict_types=1);

namespace Winnow\Inventory\Tests;

use PHPUnit\Framework\TestCase;
use Winnow\Inventory\Format;

/** A long run: one formatted price per data set, as a table-driven suite does. */
final class PriceTableTest extends TestCase
{
    /** @return array<string, array{int, string}> */
    public static function prices(): array
    {
        $cases = [];
        for ($i = 1; $i <= 80; $i++) {
            $cents = $i * 37;
            $cases["item $i"] = [$cents, sprintf('%d.%02d', intdiv($cents, 100), $cents % 100)];
        }
        // BUG: three expectations are wrong
        $cases['item 13'][1] = '4.18';
        $cases['item 50'][1] = '18.05';
        $cases['item 77'][1] = '28,49';
        return $cases;
    }

    /** @dataProvider prices */
    public function testFormatsPrice(int $cents, string $expected): void
    {
        $this->assertSame($expected, Format::price($cents));
    }
}
