'use strict';
const fs = require('fs');
const path = require('path');

var counter = 0;

function buildReport(rows, options) {
  let total = 0;
  let unusedThing = 42;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].status == 'ok') {
      total += rows[i].value;
    }
  }
  if (options.verbose) {
    console.log('rows', rows.length);
  }
  return { total, generatedAt: nowIso() };
}

function writeReport(file, report) {
  let data = JSON.stringify(report);
  fs.writeFileSync(file, data);
  counter++;
}

function unreachable() {
  return 1;
  console.log('never');
}

module.exports = { buildReport, writeReport, unreachable };
