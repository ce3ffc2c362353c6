'use strict';
const { parseUser } = require('./user');

function loadAll(records) {
  return records.map((r) => parseUser(r));
}

const records = [
  '{"id": 1, "profile": {"name": "Ada", "email": "ADA@EXAMPLE.COM"}}',
  '{"id": 2, "profile": {"name": "Bob"}}',
];
console.log(loadAll(records));
