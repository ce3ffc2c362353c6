#!/bin/bash
# Deploy helper with real shellcheck findings.

TARGET=$1
FILES=`ls *.tar.gz`

if [ $TARGET == "prod" ]; then
    echo "deploying to production"
fi

for f in $FILES; do
    cp $f /srv/releases/
done

cd /srv/releases
rm -rf $BACKUP_DIR/*

read name
echo "Hello $name" | grep -q "Hello" && echo ok || echo fail

count=0
cat list.txt | while read line; do
    count=$((count+1))
done
echo "processed $count"

if [ -z $TARGET ]
then
  exit 1
fi

function cleanup() {
  local result=$(mktemp)
  echo $result
}
trap "rm -f $tmpfile" EXIT
echo ${array[@]}
