//! The memory a syntax tree lives in.
//!
//! Every node of a tree is allocated in an [`Arena`] the caller owns, and the tree borrows
//! from it: sub-nodes are `&'a` references and lists are `&'a [T]` slices. Building a node is
//! then a pointer bump instead of a call to the system allocator, and releasing a tree is
//! releasing a few large blocks instead of walking and freeing every node, which took about a
//! quarter of the parse time with owned boxes.

/// Where parsed trees are allocated. One arena can hold the trees of many sources; they all
/// live until the arena is dropped or [`reset`](Arena::reset).
///
/// ```
/// let arena = pipeline_sql::Arena::new();
/// let parsed = pipeline_sql::parse(&arena, "CREATE FLOW f AS INSERT INTO t BY NAME SELECT * FROM STREAM(s)");
/// assert_eq!(parsed.script().statements.len(), 1);
/// ```
#[derive(Default)]
pub struct Arena {
    bump: bumpalo::Bump,
}

impl Arena {
    /// An empty arena; it takes memory from the system as trees are built in it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Releases every tree built in the arena but keeps its largest block of memory, so that
    /// the next parse (on the next keystroke, say) allocates nothing from the system.
    pub fn reset(&mut self) {
        self.bump.reset();
    }

    /// How many bytes the arena has taken from the system.
    pub fn allocated_bytes(&self) -> usize {
        self.bump.allocated_bytes()
    }

    /// Moves `value` into the arena.
    pub(crate) fn alloc<T>(&self, value: T) -> &T {
        const {
            assert!(
                !std::mem::needs_drop::<T>(),
                "the arena never runs destructors"
            )
        };
        self.bump.alloc(value)
    }

    /// Moves the items of a list (a `Vec`, or any iterator that knows its length) into the
    /// arena. An empty list takes no memory.
    pub(crate) fn slice<T, I>(&self, items: I) -> &[T]
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        const {
            assert!(
                !std::mem::needs_drop::<T>(),
                "the arena never runs destructors"
            )
        };
        let items = items.into_iter();
        if items.len() == 0 {
            return &[];
        }
        self.bump.alloc_slice_fill_iter(items)
    }

    /// Moves `items` and then `last` into the arena as one list.
    pub(crate) fn list<T>(&self, mut items: Vec<T>, last: T) -> &[T] {
        if items.is_empty() {
            return std::slice::from_ref(self.alloc(last));
        }
        items.push(last);
        self.slice(items)
    }

    /// A list of no items, to be grown in the arena; it takes no memory until it has one.
    pub(crate) fn empty_list<T>(&self) -> Growing<'_, T> {
        Growing::new_in(&self.bump)
    }

    /// A list of one item, to be grown in the arena while it is parsed: a parsed list takes
    /// no memory from the system allocator and is not copied when it is done.
    pub(crate) fn start_list<T>(&self, first: T) -> Growing<'_, T> {
        let mut list = Growing::with_capacity_in(1, &self.bump);
        list.push(first);
        list
    }
}

/// A list that [`Arena::start_list`] started, still growing.
pub(crate) type Growing<'a, T> = bumpalo::collections::Vec<'a, T>;

/// The items of a grown list, where they are in the arena.
pub(crate) fn finish_list<T>(list: Growing<'_, T>) -> &[T] {
    const {
        assert!(
            !std::mem::needs_drop::<T>(),
            "the arena never runs destructors"
        )
    };
    list.into_bump_slice()
}

impl std::fmt::Debug for Arena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arena")
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}
