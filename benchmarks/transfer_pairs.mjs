// What transfer_load.mjs and transfer_baseline.mjs share: the transfers they make, and how
// they are counted. Each of `concurrency` workers, until `seconds` have passed, picks a random
// user and one of their accounts and sends 1.00 to one of the hot accounts (one time in five)
// or to a random account; `send` answers true when the transfer completed, false when it was
// refused. Prints { completed, refused, seconds }.

const pick = (list) => list[Math.floor(Math.random() * list.length)];

export async function runTransfers(setup, seconds, concurrency, send) {
  const everyAccount = setup.users.flatMap((user) => user.accounts);
  const until = Date.now() + Number(seconds) * 1000;
  let completed = 0;
  let refused = 0;
  let sent = 0;
  async function worker() {
    while (Date.now() < until) {
      const user = pick(setup.users);
      const from = pick(user.accounts);
      let to = Math.random() < 0.2 ? pick(setup.hot) : pick(everyAccount);
      if (to === from) {
        to = setup.hot.find((id) => id !== from);
      }
      sent += 1;
      if (await send(user, from, to, `${process.pid}-${sent}`)) {
        completed += 1;
      } else {
        refused += 1;
      }
    }
  }
  const started = Date.now();
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  console.log(JSON.stringify({ completed, refused, seconds: (Date.now() - started) / 1000 }));
}
