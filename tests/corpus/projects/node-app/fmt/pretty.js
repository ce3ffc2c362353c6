const y = { a: 1 };

module.exports = { y };
