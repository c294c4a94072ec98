import ReactiveStateMacrosFree
import Testing

/// Seed scenarios S12, S14 (seed 001) and S18, S20–S23 (seed 004).
@MainActor
@Suite struct ViewGraphMoreSeedScenarioTests {
  // MARK: S12 — search screen owning its model

  struct SearchContent: View {
    let model: SearchModel
    var body: some View { Text("\(model.results.count) results") }
  }

  struct SearchField: View {
    @Bindable var model: SearchModel
    var body: some View {
      TextField("Search", text: $model.query)
      Button("Run") { model.run() }
    }
  }

  struct SearchScreen: View {
    let title: String
    @State private var model: SearchModel
    init(title: String, service: SearchService) {
      self.title = title
      _model = State(initialValue: SearchModel(service: service))
    }
    var body: some View {
      VStack {
        Text(title)
        SearchField(model: model)
        SearchContent(model: model)
        Text("service \(model.service.name)")
      }
    }
  }

  struct SearchRoot: View {
    let settings: Triple
    var body: some View {
      SearchScreen(title: "Search \(settings.a)", service: SearchService(name: "svc\(settings.a)"))
    }
  }

  @Test func s12CountIgnoresQueryEditsAndTheModelSurvivesANewService() throws {
    let settings = Triple()
    let host = ViewHost(SearchRoot(settings: settings))
    try host.type("swift", into: "Search")
    #expect(host.bodyCount(SearchContent.self) == 1)
    #expect(host.bodyCount(SearchScreen.self) == 1)
    try host.tap("Run")
    #expect(host.texts.contains("1 results"))
    #expect(host.bodyCount(SearchContent.self) == 2)
    host.perform { settings.a = 1 }
    #expect(host.bodyCount(SearchScreen.self) == 2, "re-evaluated with a new service")
    #expect(host.texts.contains("service svc0"), "the owned model was not replaced")
    #expect(host.value(of: "Search") == "swift")
  }

  // MARK: S14 — cart total derived from items

  struct CartView: View {
    let cart: CartModel
    var body: some View {
      VStack {
        Text("Total: \(cart.totalCents)")
        Button("Add 250") { cart.items.append(CartItem(priceCents: 250, quantity: 1)) }
        Button("Double first") { cart.items[0].quantity *= 2 }
      }
    }
  }

  @Test func s14TotalFollowsItems() throws {
    let cart = CartModel()
    let host = ViewHost(CartView(cart: cart))
    try host.tap("Add 250")
    try host.tap("Add 250")
    try host.tap("Double first")
    #expect(host.texts.first == "Total: 750")
    #expect(host.bodyCount(CartView.self) == 4)
    #expect(cart.totalCents == 750)
    // No stored duplicate: the view reading the total depends on `items` itself.
    #expect(host.updateLog.last?.cause == .modelProperty(ObservedKeyPath(\CartModel.items)))
    host.perform { cart.items.removeAll() }
    #expect(host.texts.first == "Total: 0")
  }

  // MARK: S18 — three views, three properties

  struct OrdersView: View {
    let model: FoodTruckModel
    var body: some View { Text("orders \(model.orderCount)") }
  }

  struct DonutsView: View {
    let model: FoodTruckModel
    var body: some View { Text("donuts \(model.donuts.count)") }
  }

  struct RevenueView: View {
    let model: FoodTruckModel
    var body: some View { Text("revenue \(model.revenue)") }
  }

  struct FoodTruckView: View {
    let model: FoodTruckModel
    var body: some View {
      VStack {
        OrdersView(model: model)
        DonutsView(model: model)
        RevenueView(model: model)
      }
    }
  }

  @Test func s18EachMutationReEvaluatesExactlyTheViewThatReadsIt() {
    let model = FoodTruckModel()
    let host = ViewHost(FoodTruckView(model: model))
    host.resetCounts()
    host.perform { model.orders.append("#1") }
    #expect(host.bodyLog == ["OrdersView"])
    #expect(
      host.updateLog.last?.cause == .modelProperty(ObservedKeyPath(\FoodTruckModel.orders)),
      "reading the computed orderCount tracked the stored orders")
    host.perform { model.donuts.append("Sprinkles") }
    #expect(host.bodyLog == ["OrdersView", "DonutsView"])
    host.perform { model.revenue += 12 }
    #expect(host.bodyLog == ["OrdersView", "DonutsView", "RevenueView"])
    #expect(host.texts == ["orders 1", "donuts 2", "revenue 12"])
  }

  // MARK: S20 — account from the environment

  struct FoodTruckMenuView: View {
    @Environment(Account.self) var account
    var body: some View {
      if let name = account.userName {
        HStack {
          Text(name)
          Button("Log out") { account.logOut() }
        }
      } else {
        Button("Login") { account.showLogin() }
      }
    }
  }

  @Test func s20TheViewFlipsWhenUserNameChanges() throws {
    let account = Account()
    let host = ViewHost(FoodTruckMenuView().environment(account))
    #expect(host.render() == "FoodTruckMenuView\n  Button \"Login\"")
    try host.tap("Login")
    #expect(
      host.render() == "FoodTruckMenuView\n  HStack\n    Text \"Ada\"\n    Button \"Log out\"")
    try host.tap("Log out")
    #expect(host.texts == ["Login"])
    #expect(host.bodyCount(FoodTruckMenuView.self) == 3)
  }

  // MARK: S21 — donut editor

  struct DonutEditor: View {
    @Bindable var donut: Donut
    var body: some View {
      Form {
        TextField("Name", text: $donut.name)
        TextField("Flavor", text: $donut.flavor)
      }
    }
  }

  @Test func s21EditsLandInTheModel() throws {
    let donut = Donut(id: 1, name: "Glazed")
    let host = ViewHost(DonutEditor(donut: donut))
    #expect(host.value(of: "Name") == "Glazed")
    try host.setText("Cruller", in: "Name")
    try host.setText("Honey", in: "Flavor")
    #expect(donut.name == "Cruller")
    #expect(donut.flavor == "Honey")
    host.perform { donut.name = "Old-fashioned" }
    #expect(host.value(of: "Name") == "Old-fashioned")
  }

  // MARK: S22 — one row per donut

  struct DonutRow: View {
    let donut: Donut
    var body: some View {
      HStack {
        Text(donut.name)
        Spacer()
        Button("Randomize") { donut.name = "Random \(donut.id)" }
      }
    }
  }

  struct DonutList: View {
    let donuts: [Donut]
    var body: some View {
      List(donuts) { donut in DonutRow(donut: donut) }
    }
  }

  struct InlineDonutList: View {
    let donuts: [Donut]
    var body: some View {
      List(donuts) { donut in
        HStack {
          Text(donut.name)
          Button("Randomize") { donut.name = "Random \(donut.id)" }
        }
      }
    }
  }

  @Test func s22RandomizeReEvaluatesOnlyThatRow() throws {
    let donuts = (0..<5).map { Donut(id: $0, name: "Donut \($0)") }
    let host = ViewHost(DonutList(donuts: donuts))
    host.resetCounts()
    try host.tap("Randomize", occurrence: 2)
    #expect(host.totalBodyEvaluations == 1)
    #expect(host.bodyCounts(of: DonutRow.self) == [0, 0, 1, 0, 0])
    #expect(host.texts.filter { $0 != "Randomize" }[2] == "Random 2")
  }

  @Test func s22InlineRowsReExpandOnlyTheListContent() throws {
    let donuts = (0..<3).map { Donut(id: $0, name: "Donut \($0)") }
    let host = ViewHost(InlineDonutList(donuts: donuts))
    try host.tap("Randomize", occurrence: 1)
    #expect(host.bodyCount(InlineDonutList.self) == 1, "row reads belong to the ForEach")
    #expect(
      host.updateLog.last?.description
        == "ForEach<Array<Donut>, Int, HStack<TupleView<(Text, Button<Text>)>>>"
        + " ← property \\Donut.<computed String>")
    #expect(host.texts.filter { $0 != "Randomize" } == ["Donut 0", "Random 1", "Donut 2"])
  }

  // MARK: S23 — manual observation of external storage

  struct ManualDonutView: View {
    let donut: ManualDonut
    var body: some View { Text(donut.name) }
  }

  @Test func s23ManuallyObservedPropertyIsTrackedLikeAStoredOne() {
    let location = ExternalNameStore()
    let donut = ManualDonut(location: location)
    let host = ViewHost(ManualDonutView(donut: donut))
    host.perform { donut.name = "Boston Cream" }
    #expect(location.name == "Boston Cream")
    #expect(host.texts == ["Boston Cream"])
    #expect(host.bodyCount(ManualDonutView.self) == 2)
    location.name = "Bypassed"
    host.flush()
    #expect(
      host.bodyCount(ManualDonutView.self) == 2, "writes that bypass withMutation are invisible")
  }
}
