"""A discrete-event simulation of a small shop: customers arrive, wait for
one of a few servers, are served and leave; a periodic tick samples the
queue. Each kind of event is a subclass of Event that overrides fire();
the event queue is a heap. Plain Python, no annotations (record, build
--all --profile, then dynac run)."""
import heapq
import math
import sys

HOT = ["Event.__lt__", "Arrival.fire", "Departure.fire", "Tick.fire", "Shop.schedule",
       "Shop.next_random", "Shop.start_service", "Shop.run"]
BENCH_SIZES = [100000]  # make bench runs main(*BENCH_SIZES)


class Event:
    __slots__ = ("time", "seq")

    def __init__(self, time, seq):
        self.time = time
        self.seq = seq

    def __lt__(self, other):
        if self.time != other.time:
            return self.time < other.time
        return self.seq < other.seq

    def fire(self, shop):
        raise NotImplementedError(type(self).__name__)


class Arrival(Event):
    __slots__ = ("customer",)

    def __init__(self, time, seq, customer):
        super().__init__(time, seq)
        self.customer = customer

    def fire(self, shop):
        shop.arrived += 1
        if shop.free:
            shop.start_service(self.customer, self.time)
        else:
            shop.queue.append((self.customer, self.time))
            shop.longest = max(shop.longest, len(shop.queue))
        if shop.arrived < shop.customers:
            shop.schedule(Arrival, shop.next_random(shop.mean_gap), shop.arrived)


class Departure(Event):
    __slots__ = ("server",)

    def __init__(self, time, seq, server):
        Event.__init__(self, time, seq)
        self.server = server

    def fire(self, shop):
        shop.served[self.server] += 1
        if shop.queue:
            customer, since = shop.queue.pop(0)
            shop.waited += self.time - since
            shop.start_service(customer, self.time, self.server)
        else:
            shop.free.append(self.server)


class Tick(Event):
    __slots__ = ()

    def fire(self, shop):
        shop.samples.append(len(shop.queue))
        if shop.arrived < shop.customers or shop.queue:
            shop.schedule(Tick, 10.0)


class Shop:
    def __init__(self, customers, servers, mean_gap, mean_service, seed):
        self.customers = customers
        self.mean_gap = mean_gap
        self.mean_service = mean_service
        self.free = list(range(servers))
        self.served = [0] * servers
        self.queue = []
        self.events = []
        self.now = 0.0
        self.seq = 0
        self.state = seed
        self.arrived = 0
        self.waited = 0.0
        self.longest = 0
        self.samples = []

    def next_random(self, mean):
        """An exponential variate from a linear congruential generator (exact and portable)."""
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 18446744073709551616
        u = ((self.state >> 11) + 0.5) / 9007199254740992.0
        return -mean * math.log(u)

    def schedule(self, kind, delay, *extra):
        self.seq += 1
        heapq.heappush(self.events, kind(self.now + delay, self.seq, *extra))

    def start_service(self, customer, now, server=None):
        if server is None:
            server = self.free.pop()
        self.schedule(Departure, self.next_random(self.mean_service), server)

    def run(self):
        self.schedule(Arrival, 0.0, 0)
        self.schedule(Tick, 10.0)
        fired = 0
        while self.events:
            event = heapq.heappop(self.events)
            self.now = event.time
            event.fire(self)
            fired += 1
        return fired


def main(customers=2000):
    shop = Shop(customers, 3, 1.0, 2.7, 12345)
    fired = shop.run()
    print("events", fired, "time %.3f" % shop.now)
    print("served", shop.served, "longest queue", shop.longest)
    print("mean wait %.4f" % (shop.waited / customers))
    print("mean queue %.4f" % (sum(shop.samples) / len(shop.samples)))


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
