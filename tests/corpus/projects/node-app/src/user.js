'use strict';

function parseUser(json) {
  const data = JSON.parse(json);
  return {
    id: data.id,
    name: data.profile.name,
    email: data.profile.email.toLowerCase(),
  };
}

module.exports = { parseUser };
