# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""examples/programs/scheduler.py by hand in Cython, the reference `make bench` measures
dynac's scheduler against (the same events, the same output). variant.pxi, which
tests/bench.py writes, picks one of three builds:
  typed: cdef classes with C fields, constructions through __init__, heapq (its
         comparisons through __lt__): what a straightforward typed port gives;
  boxed: the fields hold objects, as a Python class's slots and attributes do (a
         float, an int per store), with a heap of its own comparing inline and
         events made without __init__: what a compiler keeping CPython's objects
         could reach;
  c:     the same with C fields: no object per number."""
include "variant.pxi"  # real_t, count_t, state_t (double, long, unsigned long long, or object); HAND
import heapq
from libc.math cimport log


cdef class Event:
    cdef public real_t time
    cdef public count_t seq

    def __init__(self, time, seq):
        self.time = time
        self.seq = seq

    def __lt__(self, Event other):
        return less(self, other)

    cpdef fire(self, Shop shop):
        raise NotImplementedError(type(self).__name__)


cdef class Arrival(Event):
    cdef public count_t customer

    def __init__(self, time, seq, customer):
        Event.__init__(self, time, seq)
        self.customer = customer

    cpdef fire(self, Shop shop):
        cdef long arrived = shop.arrived
        shop.arrived = arrived + 1
        if shop.free:
            shop.start_service(self.customer, self.time, -1)
        else:
            shop.queue.append((self.customer, self.time))
            shop.longest = max(<long>shop.longest, len(shop.queue))
        if <long>shop.arrived < <long>shop.customers:
            shop.push(new_arrival(<double>shop.now + shop.next_random(shop.mean_gap), shop.next_seq(),
                                  shop.arrived))


cdef class Departure(Event):
    cdef public count_t server

    def __init__(self, time, seq, server):
        Event.__init__(self, time, seq)
        self.server = server

    cpdef fire(self, Shop shop):
        cdef double since
        shop.served[self.server] += 1
        if shop.queue:
            customer, since = shop.queue.pop(0)
            shop.waited = <double>shop.waited + (<double>self.time - since)
            shop.start_service(customer, self.time, self.server)
        else:
            shop.free.append(self.server)


cdef class Tick(Event):
    cpdef fire(self, Shop shop):
        shop.samples.append(len(shop.queue))
        if <long>shop.arrived < <long>shop.customers or shop.queue:
            shop.push(new_tick(<double>shop.now + 10.0, shop.next_seq()))


cdef inline bint less(Event a, Event b):
    cdef double at = a.time, bt = b.time
    if at != bt:
        return at < bt
    return <long>a.seq < <long>b.seq


cdef Arrival new_arrival(double time, long seq, long customer):
    cdef Arrival e
    IF HAND:
        e = Arrival.__new__(Arrival)
        e.time, e.seq, e.customer = time, seq, customer
        return e
    ELSE:
        return Arrival(time, seq, customer)


cdef Departure new_departure(double time, long seq, long server):
    cdef Departure e
    IF HAND:
        e = Departure.__new__(Departure)
        e.time, e.seq, e.server = time, seq, server
        return e
    ELSE:
        return Departure(time, seq, server)


cdef Tick new_tick(double time, long seq):
    cdef Tick e
    IF HAND:
        e = Tick.__new__(Tick)
        e.time, e.seq = time, seq
        return e
    ELSE:
        return Tick(time, seq)


cdef void heap_push(list heap, Event item):
    """heapq.heappush's sift, comparing with less()."""
    heap.append(item)
    cdef Py_ssize_t pos = len(heap) - 1, parentpos
    while pos > 0:
        parentpos = (pos - 1) >> 1
        if not less(item, <Event>heap[parentpos]):
            break
        heap[pos] = heap[parentpos]
        pos = parentpos
    heap[pos] = item


cdef Event heap_pop(list heap):
    """heapq.heappop's sift (to a leaf, then back up), comparing with less()."""
    cdef Event last = <Event>heap.pop(), smallest
    if not heap:
        return last
    smallest = <Event>heap[0]
    cdef Py_ssize_t endpos = len(heap), pos = 0, childpos = 1, parentpos
    while childpos < endpos:
        if childpos + 1 < endpos and not less(<Event>heap[childpos], <Event>heap[childpos + 1]):
            childpos += 1
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    while pos > 0:
        parentpos = (pos - 1) >> 1
        if not less(last, <Event>heap[parentpos]):
            break
        heap[pos] = heap[parentpos]
        pos = parentpos
    heap[pos] = last
    return smallest


cdef class Shop:
    cdef public count_t customers, seq, arrived, longest
    cdef public real_t mean_gap, mean_service, now, waited
    cdef public state_t state
    cdef public list free, served, queue, events, samples

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

    cdef double next_random(self, double mean):
        cdef unsigned long long s = <unsigned long long>self.state * 6364136223846793005ULL + 1442695040888963407ULL
        self.state = s  # mod 2**64: the unsigned arithmetic's wrap-around
        return -mean * log(((s >> 11) + 0.5) / 9007199254740992.0)

    cdef long next_seq(self):
        cdef long seq = self.seq
        self.seq = seq + 1
        return seq + 1

    cdef push(self, Event e):
        IF HAND:
            heap_push(self.events, e)
        ELSE:
            heapq.heappush(self.events, e)

    cdef start_service(self, long customer, double now, long server):
        if server < 0:
            server = self.free.pop()
        self.push(new_departure(<double>self.now + self.next_random(self.mean_service), self.next_seq(), server))

    def run(self):
        self.push(new_arrival(self.now, self.next_seq(), 0))
        self.push(new_tick(<double>self.now + 10.0, self.next_seq()))
        cdef long fired = 0
        cdef Event event
        while self.events:
            IF HAND:
                event = heap_pop(self.events)
            ELSE:
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
