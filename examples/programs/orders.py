"""Order processing: parse order lines, reserve stock, charge accounts and
book each order in a ledger transaction (a context manager that rolls back
on error). Bad lines, missing stock and declined payments are exceptions,
counted by kind. Plain Python, no annotations (record, build --all
--profile, then dynac run)."""
import sys

HOT = ["parse_order", "Order.total", "Stock.reserve", "Stock.release", "Account.charge",
       "Transaction.__enter__", "Transaction.__exit__", "process_one", "process"]
BENCH_SIZES = [60000]  # make bench runs main(*BENCH_SIZES)

PRICES = {"bolt": 0.25, "nut": 0.1, "gear": 4.5, "shaft": 12.0, "spring": 0.75, "plate": 3.2}


class OrderError(Exception):
    """A problem with one order; the order is skipped."""


class OutOfStock(OrderError):
    def __init__(self, item, wanted, left):
        super().__init__(f"{item}: wanted {wanted}, {left} left")
        self.item = item


class Declined(OrderError):
    pass


class Order:
    def __init__(self, number, customer, lines):
        self.number = number
        self.customer = customer
        self.lines = lines  # [(item, quantity)]

    def total(self):
        return sum(PRICES[item] * qty for item, qty in self.lines)


class Stock:
    def __init__(self, levels):
        self.levels = dict(levels)

    def reserve(self, item, qty):
        left = self.levels.get(item, 0)
        if qty > left:
            raise OutOfStock(item, qty, left)
        self.levels[item] = left - qty

    def release(self, item, qty):
        self.levels[item] += qty


class Account:
    def __init__(self, name, balance, limit):
        self.name = name
        self.balance = balance
        self.limit = limit

    def charge(self, amount):
        if self.balance - amount < -self.limit:
            raise Declined("%s: %.2f over the limit" % (self.name, amount))
        self.balance -= amount


class Transaction:
    """Books a order's steps in the ledger; on an exception the steps are
    undone in reverse order and the exception goes on."""

    def __init__(self, ledger):
        self.ledger = ledger
        self.undo = []

    def __enter__(self):
        self.ledger["open"] += 1
        return self

    def __exit__(self, kind, value, tb):
        self.ledger["open"] -= 1
        if kind is None:
            self.ledger["committed"] += 1
            return False
        for step in reversed(self.undo):
            step()
        self.ledger["rolled back"] += 1
        return False


def parse_order(number, text):
    """'alice: bolt x 4, gear x 1' -> Order; ValueError on a malformed line."""
    customer, sep, rest = text.partition(":")
    if not sep or not customer.strip():
        raise ValueError("order %d: no customer" % number)
    lines = []
    for part in rest.split(","):
        item, _, qty = part.strip().partition(" x ")
        if item not in PRICES:
            raise ValueError(f"order {number}: unknown item {item!r}")
        lines.append((item, int(qty)))
    return Order(number, customer.strip(), lines)


def process_one(order, stock, accounts, ledger):
    with Transaction(ledger) as tx:
        for item, qty in order.lines:
            stock.reserve(item, qty)
            tx.undo.append(lambda item=item, qty=qty: stock.release(item, qty))
        amount = order.total()
        accounts[order.customer].charge(amount)
    return amount


def process(texts, stock, accounts):
    ledger = {"open": 0, "committed": 0, "rolled back": 0}
    errors = {}
    revenue = 0.0
    for number, text in enumerate(texts):
        try:
            order = parse_order(number, text)
            revenue += process_one(order, stock, accounts, ledger)
        except OrderError as e:
            kind = type(e).__name__
            errors[kind] = errors.get(kind, 0) + 1
        except (ValueError, KeyError) as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
        finally:
            ledger["seen"] = number + 1
    return revenue, errors, ledger


def make_orders(n, seed):
    names = ["alice", "bob", "carol", "dave", "erin", "zed"]  # zed has no account
    items = sorted(PRICES) + ["sprocket"]  # a sprocket is not sold
    texts, x = [], seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        who = names[x % len(names)]
        parts = []
        for k in range(1 + x % 3):
            x = (x * 1103515245 + 12345) % 2147483648
            parts.append("%s x %d" % (items[x % 61 % len(items)], 1 + x % 7))
        texts.append(("" if x % 97 == 0 else who) + ": " + ", ".join(parts))
    return texts


def main(n=3000):
    texts = make_orders(n, 7)
    stock = Stock({item: n // 2 for item in PRICES})
    accounts = {name: Account(name, (1 + k) * 0.75 * n, 25.0)
                for k, name in enumerate(("alice", "bob", "carol", "dave", "erin"))}
    revenue, errors, ledger = process(texts, stock, accounts)
    print("revenue %.2f" % revenue)
    print("errors", sorted(errors.items()))
    print("ledger", sorted(ledger.items()))
    print("stock", sorted(stock.levels.items()))
    print("balances", [(a.name, round(a.balance, 2)) for a in accounts.values()])


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
